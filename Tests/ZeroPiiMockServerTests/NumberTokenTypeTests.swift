import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiWire

@testable import ZeroPiiMockServer

/// Vault format 4: a number's token fits every type its value fits (Docs/Protocol.md
/// section 10), so an app parses it back as the type it sent. Found from outside under
/// format 3: of 5,103 doubles, 1,337 tokens overflowed to infinity, 1,285 non-zero
/// values got a token that parses as 0 and 2,687 tokens were not what `Double.toString`
/// writes; 89 of 1,000 19-digit `Int64` values and 1,748 of 2,000 10-digit `Int32`
/// values got tokens outside their type. ``WireValueFormat`` is the reference for the
/// Java forms; `WireValueFormatJavaTests` holds it to OpenJDK 17's own output.
@Suite(.skippedUnderThreadSanitizer)
struct NumberTokenTypeTests {
    static let cipher = FormatPreservingCipher.vault(.typedNumbers, keyByte: 11)

    static func doubles() -> [Double] {
        var words = SplitMix64(seed: 1)
        var values: [Double] = [
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude, .leastNonzeroMagnitude,
            -.leastNonzeroMagnitude, 1.0e7, 1.0e-3, 0, -0.0, 123.456, 1.0e308, 9.999999999999999e22, 2.2250738585072014e-308,
        ]
        while values.count < 1_000 {
            let value = Double(bitPattern: words.next())
            if value.isFinite { values.append(value) }
        }
        return values
    }

    static func floats() -> [Float] {
        var words = SplitMix64(seed: 2)
        var values: [Float] = [.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, 1.0e7, 16_777_216, -0.0]
        while values.count < 500 {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: words.next()))
            if value.isFinite { values.append(value) }
        }
        return values
    }

    static func check(_ text: String, isType fits: (String) -> Bool, _ type: String) {
        let token = cipher.encrypt(text)
        #expect(fits(token), "\(type) \(text) → \(token)")
        #expect(token != text, "\(text) is its own token")
        #expect(NumberFormatCheck.isNumber(token), "\(text) → \(token) is still a number")
    }

    @Test func doublesGetDoublesThatJavaWritesTheSameWay() {
        var tokens = Set<String>()
        for value in Self.doubles() {
            guard let text = WireValueFormat.string(value) else { continue }
            let token = Self.cipher.encrypt(text)
            let parsed = Double(token)
            #expect(parsed?.isFinite == true && parsed.flatMap(WireValueFormat.string) == token, "\(text) → \(token)")
            #expect(parsed != 0 || value == 0, "\(text) → \(token) parses as zero")
            #expect(token != text, "\(text)")
            #expect(NumberTypeFit(token) == NumberTypeFit(text), "\(text) → \(token): the same types")
            tokens.insert(token)
        }
        #expect(tokens.count == Set(Self.doubles().compactMap(WireValueFormat.string)).count, "no two values share a token")
    }

    @Test func floatsGetFloatsThatJavaWritesTheSameWay() {
        for value in Self.floats() {
            guard let text = WireValueFormat.string(value) else { continue }
            let token = Self.cipher.encrypt(text)
            let parsed = Float(token)
            #expect(parsed?.isFinite == true && parsed.flatMap(WireValueFormat.string) == token, "\(text) → \(token)")
            #expect(token != text, "\(text)")
        }
    }

    @Test func integersStayWithinTheirTypes() {
        var words = SplitMix64(seed: 3)
        var int32s: [Int32] = [.min, .max, 1_000_000_000, 2_147_483_000, -2_147_483_000, 0, -1]
        var int64s: [Int64] = [.min, .max, 9_223_372_036_854_775_000, -9_000_000_000_000_000_000]
        while int32s.count < 500 {
            // Ten-digit values, the ones whose tokens overflowed most often.
            let value = Int32(truncatingIfNeeded: words.next())
            if abs(Int64(value)) >= 1_000_000_000 { int32s.append(value) }
        }
        while int64s.count < 300 {
            let value = Int64(bitPattern: words.next())
            if value.magnitude >= 1_000_000_000_000_000_000 { int64s.append(value) }
        }
        for value in int32s { Self.check(String(value), isType: { Int32($0) != nil }, "Int32") }
        for value in int64s {
            Self.check(String(value), isType: { Int64($0) != nil && Int32($0) == nil }, "Int64")
        }
        // Wider than Int64 stays wider: the class is kept, not only the range.
        Self.check("99999999999999999999", isType: { Int64($0) == nil }, "wider")
    }

    @Test func stringsThatLookLikeNumbersAndOtherStringsAreUnchangedFromFormat3() {
        let format3 = FormatPreservingCipher.vault(.sipHashRounds, keyByte: 11)
        for value in ["alice@example.com", "007", "-0", "1e5", "1E5", "+1 (555) 123-4567", "Ольга", "4111111111111111x"] {
            #expect(Self.cipher.encrypt(value) == format3.encrypt(value), "\(value)")
        }
    }
}
