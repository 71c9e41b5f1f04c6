import Foundation
import Testing
import ZeroPiiCrypto
import ZeroPiiTestSupport

@testable import ZeroPiiMockServer

struct FormatPreservingCipherTests {
    let cipher = FormatPreservingCipher(key: SymmetricKey(data: [UInt8](repeating: 7, count: 32)))

    @Test(arguments: ["alice@example.com", "+1 (555) 010-2345", "AB-1234-xy", "Zürich 8001", "日本 42", "x", "7", "--", "", "a b\tc\nd"])
    func formatIsPreserved(value: String) {
        let token = cipher.encrypt(value)
        #expect(token.unicodeScalars.count == value.unicodeScalars.count)
        #expect(token.formatShape == value.formatShape)
        #expect(cipher.encrypt(value) == token)
    }

    @Test func numbersKeepTheirLayout() {
        for value in ["-12.5E-3", "1.0E7", "42", "-0.0", "3.14"] {
            let token = cipher.encrypt(value)
            #expect(NumberFormatCheck.isNumber(token), "\(value) → \(token)")
            #expect(token.formatShape == value.formatShape)
        }
    }

    /// Every value of small formats: the tokens are all different, so the mapping is a
    /// permutation (uniqueness by construction, checked exhaustively).
    @Test(arguments: ["9", "a", "A", "99", "9a", "a-9", "99.9", "aA9"])
    func everyValueOfAFormatGetsADifferentToken(format: String) {
        var values = [""]
        for marker in format {
            let alphabet: [Character]
            switch marker {
            case "9": alphabet = Array("0123456789")
            case "a": alphabet = Array("abcdefghijklmnopqrstuvwxyz")
            case "A": alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            default: alphabet = [marker]
            }
            values = values.flatMap { prefix in alphabet.map { prefix + String($0) } }
        }
        let tokens = Set(values.map(cipher.encrypt))
        #expect(tokens.count == values.count)
        #expect(tokens == Set(values))  // a permutation of the format's values
    }

    @Test func differentKeysGiveDifferentTokens() {
        let other = FormatPreservingCipher(key: SymmetricKey(data: [UInt8](repeating: 8, count: 32)))
        #expect(other.encrypt("alice@example.com") != cipher.encrypt("alice@example.com"))
    }
}
