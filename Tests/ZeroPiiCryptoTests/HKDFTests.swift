import Foundation
import Testing
import ZeroPiiCrypto

struct HKDFVector: Sendable, CustomTestStringConvertible {
    let name: String
    let ikm: String
    let salt: String
    let info: String
    let length: Int
    let prk: String
    let okm: String
    var testDescription: String { name }
}

struct HKDFTests {
    static let rfc5869: [HKDFVector] = [
        HKDFVector(
            name: "RFC 5869 A.1", ikm: String(repeating: "0b", count: 22), salt: "000102030405060708090a0b0c", info: "f0f1f2f3f4f5f6f7f8f9",
            length: 42, prk: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
            okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        HKDFVector(
            name: "RFC 5869 A.2", ikm: (0x00..<0x50).map { String(format: "%02x", $0) }.joined(),
            salt: (0x60..<0xb0).map { String(format: "%02x", $0) }.joined(), info: (0xb0..<0x100).map { String(format: "%02x", $0) }.joined(),
            length: 82, prk: "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
            okm:
                "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"
        ),
        HKDFVector(
            name: "RFC 5869 A.3", ikm: String(repeating: "0b", count: 22), salt: "", info: "", length: 42,
            prk: "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
            okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    @Test(arguments: rfc5869)
    func rfc5869(vector: HKDFVector) throws {
        let ikm = SymmetricKey(data: [UInt8](hex: vector.ikm))
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: [UInt8](hex: vector.salt))
        #expect([UInt8](prk).hex == vector.prk)
        let expanded = try HKDF<SHA256>.expand(pseudoRandomKey: prk, info: [UInt8](hex: vector.info), outputByteCount: vector.length)
        #expect(expanded.withUnsafeBytes { [UInt8]($0) }.hex == vector.okm)
        let derived = try HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: [UInt8](hex: vector.salt), info: [UInt8](hex: vector.info),
            outputByteCount: vector.length
        )
        #expect(derived == expanded)
        #expect(derived.bitCount == vector.length * 8)
    }

    @Test func emptySaltEqualsThirtyTwoZeroBytes() throws {
        let ikm = SymmetricKey(data: Data("input".utf8))
        let withEmpty = try HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: Data(), info: Data("i".utf8), outputByteCount: 32)
        let withZeros = try HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: Data(count: 32), info: Data("i".utf8), outputByteCount: 32)
        let withoutSalt = try HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, info: Data("i".utf8), outputByteCount: 32)
        #expect(withEmpty == withZeros)
        #expect(withoutSalt == withZeros)
    }

    @Test func outputSizeLimits() throws {
        let ikm = SymmetricKey(data: Data("input".utf8))
        let maximal = try HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, outputByteCount: 255 * 32)
        #expect(maximal.bitCount == 255 * 32 * 8)
        #expect(throws: CryptoError.outputSizeTooLarge) {
            try HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, outputByteCount: 255 * 32 + 1)
        }
        #expect(throws: CryptoError.incorrectParameterSize) {
            try HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, outputByteCount: -1)
        }
        #expect(try HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, outputByteCount: 0).bitCount == 0)
        // A shorter output is a prefix of a longer one.
        let short = try HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, outputByteCount: 40)
        #expect(short.withUnsafeBytes { [UInt8]($0) } == maximal.withUnsafeBytes { Array([UInt8]($0).prefix(40)) })
    }
}
