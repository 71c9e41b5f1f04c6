import Foundation
import Testing
import ZeroPiiCrypto

struct HMACVector: Sendable, CustomTestStringConvertible {
    let name: String
    let key: String
    let message: String
    let code: String
    var testDescription: String { name }
}

struct HMACTests {
    @Test(arguments: [
        HMACVector(
            name: "RFC 4231 case 1", key: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", message: "4869205468657265",
            code: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        HMACVector(
            name: "RFC 4231 case 2", key: "4a656665", message: "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
            code: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        HMACVector(
            name: "RFC 4231 case 3", key: String(repeating: "aa", count: 20), message: String(repeating: "dd", count: 50),
            code: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        HMACVector(
            name: "RFC 4231 case 4", key: "0102030405060708090a0b0c0d0e0f10111213141516171819", message: String(repeating: "cd", count: 50),
            code: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        HMACVector(
            name: "RFC 4231 case 6", key: String(repeating: "aa", count: 131),
            message: "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
            code: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        HMACVector(
            name: "RFC 4231 case 7", key: String(repeating: "aa", count: 131),
            message:
                "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
            code: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ])
    func rfc4231(vector: HMACVector) {
        let key = SymmetricKey(data: [UInt8](hex: vector.key))
        let message = [UInt8](hex: vector.message)
        let code = HMAC<SHA256>.authenticationCode(for: message, using: key)
        #expect([UInt8](code).hex == vector.code)
        #expect(HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: key))
        #expect(HMAC<SHA256>.isValidAuthenticationCode([UInt8](hex: vector.code), authenticating: message, using: key))
    }

    /// RFC 4231 case 5 publishes only the first 128 bits of the code.
    @Test func rfc4231TruncatedCase5() {
        let key = SymmetricKey(data: [UInt8](repeating: 0x0c, count: 20))
        let code = HMAC<SHA256>.authenticationCode(for: Data("Test With Truncation".utf8), using: key)
        #expect([UInt8](code).prefix(16).map { $0 } == [UInt8](hex: "a3b6167473100ee06e0c796c2955552b"))
    }

    @Test func everyFlippedBitAndEveryWrongLengthIsRejected() {
        let key = SymmetricKey(size: .bits256)
        let message = Data("message".utf8)
        let code = [UInt8](HMAC<SHA256>.authenticationCode(for: message, using: key))
        for bit in 0..<(code.count * 8) {
            var tampered = code
            tampered[bit / 8] ^= 1 << (bit % 8)
            #expect(!HMAC<SHA256>.isValidAuthenticationCode(tampered, authenticating: message, using: key))
        }
        #expect(!HMAC<SHA256>.isValidAuthenticationCode([UInt8](), authenticating: message, using: key))
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(Array(code.prefix(16)), authenticating: message, using: key))
        #expect(!HMAC<SHA256>.isValidAuthenticationCode(code + [0], authenticating: message, using: key))
    }

    @Test func incrementalMatchesOneShot() {
        let key = SymmetricKey(data: Data("key".utf8))
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: Data("The quick brown fox ".utf8))
        hmac.update(data: Data("jumps over the lazy dog".utf8))
        let expected = HMAC<SHA256>.authenticationCode(for: Data("The quick brown fox jumps over the lazy dog".utf8), using: key)
        #expect(hmac.finalize() == expected)
        #expect([UInt8](expected).hex == "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")
        #expect(!expected.description.contains("f7bc83f4"))
    }
}
