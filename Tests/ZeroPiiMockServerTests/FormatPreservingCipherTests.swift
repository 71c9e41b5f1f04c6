import Foundation
import Testing
import ZeroPiiCrypto
import ZeroPiiTestHelpers

@testable import ZeroPiiMockServer

/// Docs/Protocol.md section 10, on the cipher the vault uses.
struct FormatPreservingCipherTests {
    let cipher = FormatPreservingCipher.vault(.current, keyByte: 7)

    /// Whether `token` has `value`'s format: the same characters where `value` has no
    /// letter or number, and a member of the same alphabet where it has one.
    static func keepsFormat(_ token: String, of value: String) -> Bool {
        let tokenScalars = Array(token.unicodeScalars)
        let valueScalars = Array(value.unicodeScalars)
        guard tokenScalars.count == valueScalars.count else { return false }
        return zip(valueScalars, tokenScalars).allSatisfy { original, replaced in
            guard let (alphabet, _) = TokenAlphabets.classify(original, in: .readable) else { return original == replaced }
            return TokenAlphabets.classify(replaced, in: .readable)?.alphabet == alphabet
                && replaced.properties.generalCategory == original.properties.generalCategory
        }
    }

    /// Every value of a format given as alphabets, one per position.
    static func every(_ alphabets: [[String]]) -> [String] {
        alphabets.reduce([""]) { prefixes, alphabet in prefixes.flatMap { prefix in alphabet.map { prefix + $0 } } }
    }

    static let digits = (0...9).map(String.init)
    static let uppercase = (65...90).map { String(UnicodeScalar(UInt8($0))) }
    static let lowercase = (97...122).map { String(UnicodeScalar(UInt8($0))) }

    @Test(arguments: [
        "alice@example.com", "+1 (555) 010-2345", "AB-1234-xy", "Zürich 8001", "日本 42", "x", "7", "a b\tc\nd",
        "José Müller", "Дмитрий", "山田太郎", "٣٤٥", "Ⅻ", "x²", "ǅ",
    ])
    func formatIsKeptAndTheTokenIsNotTheValue(value: String) {
        let token = cipher.encrypt(value)
        #expect(Self.keepsFormat(token, of: value), "\(value) → \(token)")
        #expect(token != value)
        #expect(cipher.encrypt(value) == token)
    }

    @Test(arguments: ["", "--", " ", "(+) @.", "\u{0301}", "👩‍👩‍👧"])
    func aValueWithNoLetterOrDigitIsItsOwnToken(value: String) {
        #expect(cipher.encrypt(value) == value)
    }

    /// A value whose format has no other member: documented in Docs/Protocol.md.
    @Test func formatsWithOneMemberAreTheirOwnToken() {
        #expect(cipher.encrypt("-0") == "-0")
        #expect(cipher.encrypt("\u{0E46}") == "\u{0E46}")  // THAI CHARACTER MAIYAMOK, alone in its alphabet
        #expect(cipher.encrypt("\u{0E46}a") != "\u{0E46}a")
    }

    /// Canonical numbers (section 4), including Java's `Double` and `Float` forms.
    @Test func theNumberFormsOfSectionFourAreNumbers() {
        for value in [
            "0", "-42", "100.0", "-0.0", "1.23456792E8", "4.9E-324", "1.17549435E-38", "9.999999999999999E22", "0.30000000000000004",
            "1.0E10", "-2.5E-5",
        ] {
            #expect(NumberFormatCheck.isNumber(value), "\(value)")
        }
        for value in ["007", "-0", "1e5", "1E5", ".5", "5.", "1.0E05", "1.0E-0", "+1", "--1", "1.0E", "0E0", "00.5", "-", "1,000", "١٢"] {
            #expect(!NumberFormatCheck.isNumber(value), "\(value)")
        }
    }

    /// Every integer from -10,000 to 10,000 and random decimals and `E` forms: the token is
    /// a number of the same shape, never the value, and different for every value.
    @Test func numbersGetNumbersOfTheSameShape() {
        var generator = SplitMix64(seed: 11)
        var values = (-10_000...10_000).map(String.init)
        for _ in 0..<5_000 {
            let integer = String(Int.random(in: 0...99_999, using: &generator))
            let fraction = String(
                (0..<Int.random(in: 1...6, using: &generator)).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            let sign = Bool.random(using: &generator) ? "-" : ""
            let exponent = Int.random(in: 0...3, using: &generator) == 0 ? "E\(Int.random(in: -330...330, using: &generator))" : ""
            values.append(sign + integer + "." + fraction + exponent)
        }
        values = Array(Set(values))
        var tokens = Set<String>()
        for value in values {
            let token = cipher.encrypt(value)
            tokens.insert(token)
            #expect(NumberFormatCheck.isNumber(token), "\(value) → \(token)")
            #expect(Self.shape(token) == Self.shape(value), "\(value) → \(token)")
            #expect(token != value)
        }
        #expect(tokens.count == values.count)
    }

    /// The number's layout: digits become `9`, everything else stays.
    static func shape(_ number: String) -> String {
        String(number.map { $0.isASCII && $0.isNumber ? "9" : $0 })
    }

    /// Small domains, every value: every 3-character string over `[0-9A-Z]` (so every one
    /// over `[0-9E]`), every string of up to four characters over `[0-9.E-]`, and whole
    /// number formats. Tokens are all different across the lot (numbers and strings
    /// alike), a number's token is a number and a string's a string, and no value is its
    /// own token except `-0`, the one member of its format. These properties hold for any
    /// round function, so the 80,000 values run with the fast one; the vault's own runs
    /// every value of `[0-9E]` up to three characters below.
    @Test func smallMixedDomainsHaveNoCollisionAndNoFixedPoint() {
        Self.checkMixedDomains(cipher: FormatPreservingCipher(roundFunction: FastRoundFunction(key: 3)), values: Self.mixedDomains())
    }

    @Test(arguments: VaultFormat.allCases)
    func theVaultCipherOnEveryShortStringOfDigitsAndE(format: VaultFormat) {
        let digitsAndE = Self.digits + ["E", "-", "."]
        let values = Set((1...3).flatMap { Self.every(Array(repeating: digitsAndE, count: $0)) })
        Self.checkMixedDomains(cipher: .vault(format, keyByte: 7), values: values)
    }

    static func mixedDomains() -> Set<String> {
        let alphanumeric = Self.digits + Self.uppercase
        let numeric = Self.digits + [".", "E", "-"]
        var values = Set(Self.every([alphanumeric, alphanumeric, alphanumeric]))
        for length in 1...4 { values.formUnion(Self.every(Array(repeating: numeric, count: length))) }
        values.formUnion(Self.every([["-"], Self.digits, Self.digits, ["."], Self.digits]))
        values.formUnion(Self.every([Self.digits, ["."], Self.digits, ["E", "e"], ["-"], Self.digits]))
        values.formUnion(Self.every([Self.lowercase, Self.digits, Self.uppercase, ["é", "ü", "ß"]]))
        return values
    }

    static func checkMixedDomains(cipher: FormatPreservingCipher, values: Set<String>) {
        var tokenOwner: [String: String] = [:]
        for value in values {
            let token = cipher.encrypt(value)
            if let other = tokenOwner.updateValue(value, forKey: token) {
                Issue.record("\(value) and \(other) share a token")
            }
            #expect(NumberFormatCheck.isNumber(token) == NumberFormatCheck.isNumber(value), "\(value) → \(token)")
            #expect(Self.keepsFormat(token, of: value) || NumberFormatCheck.isNumber(value), "\(value) → \(token)")
            if token == value && value != "-0" && value.contains(where: { $0.isLetter || $0.isNumber }) {
                Issue.record("\(value) is its own token")
            }
        }
        #expect(tokenOwner.count == values.count)
    }

    /// A whole format maps onto itself: the token function is a permutation of it.
    @Test(
        arguments: VaultFormat.allCases,
        [["9", "9"], ["a"], ["A", "9", "a"], ["-", "9", "9", "9"], ["9", ".", "9", "9"], ["9", "-", "9"], ["é", "9"]])
    func everyFormatIsPermutedOntoItself(vaultFormat: VaultFormat, format: [String]) {
        let cipher = FormatPreservingCipher.vault(vaultFormat, keyByte: 7)
        let alphabets: [[String]] = format.map { marker in
            switch marker {
            case "9": return Self.digits
            case "a": return Self.lowercase
            case "A": return Self.uppercase
            case "é": return (0xDF...0xFF).filter { $0 != 0xF7 }.map { String(UnicodeScalar(UInt8($0))) }
            default: return [marker]
            }
        }
        let values = Self.every(alphabets)
        let tokens = values.map(cipher.encrypt)
        #expect(Set(tokens).count == values.count)
        #expect(Set(tokens).subtracting(values).isEmpty)
        #expect(zip(values, tokens).allSatisfy { $0 != $1 || $0 == "-0" })
    }

    @Test(arguments: VaultFormat.allCases)
    func differentKeysGiveDifferentTokens(format: VaultFormat) {
        let one = FormatPreservingCipher.vault(format, keyByte: 7)
        let other = FormatPreservingCipher.vault(format, keyByte: 8)
        #expect(other.encrypt("alice@example.com") != one.encrypt("alice@example.com"))
    }

    /// The two formats are different token functions: a value's tokens under one key
    /// differ between them.
    @Test func theTwoVaultFormatsGiveDifferentTokens() {
        let values = ["alice@example.com", "+1 (555) 123-4567", "4111111111111111", "Ольга"]
        let format2 = FormatPreservingCipher.vault(.keyedSHA256Rounds, keyByte: 7)
        let format3 = FormatPreservingCipher.vault(.sipHashRounds, keyByte: 7)
        #expect(values.filter { format2.encrypt($0) == format3.encrypt($0) }.isEmpty)
    }
}
