import Foundation
import Testing
import ZeroPiiWire

/// Expected strings are OpenJDK 17's `Double.toString` / `Float.toString` (checked with
/// `java`), which is what Android writes. Some are longer than the shortest round-trip
/// digits that JDK 19+ would write: `1e23` (`9.999999999999999E22`, not `1.0E23`),
/// `Float(123456789)` (`1.23456792E8`), `Float.leastNormalMagnitude` (`1.17549435E-38`),
/// `2e23` (`1.9999999999999998E23`). WireValueFormatJavaTests
/// compares millions more against a JVM.
struct WireValueFormatTests {
    static let doubles: [(Double, String)] = [
        (0.0, "0.0"), (-0.0, "-0.0"), (1.0, "1.0"), (-1.0, "-1.0"), (100.0, "100.0"),
        (3.14, "3.14"), (2.71828, "2.71828"), (1e7, "1.0E7"), (9_999_999.0, "9999999.0"),
        (9_999_999.999999998, "9999999.999999998"), (0.001, "0.001"),
        (0.0009999999999999998, "9.999999999999998E-4"), (0.0001234, "1.234E-4"),
        (123_456_789.0, "1.23456789E8"), (Double.greatestFiniteMagnitude, "1.7976931348623157E308"),
        (Double.leastNonzeroMagnitude, "4.9E-324"), (Double.leastNormalMagnitude, "2.2250738585072014E-308"),
        (0.1, "0.1"), (0.1 + 0.2, "0.30000000000000004"), (1.0 / 3, "0.3333333333333333"),
        (2.0 / 3, "0.6666666666666666"), (1e-7, "1.0E-7"), (1e21, "1.0E21"), (1e22, "1.0E22"),
        (1e23, "9.999999999999999E22"), (9.223372036854776E18, "9.223372036854776E18"), (4.35, "4.35"),
        (1_234_567.0, "1234567.0"), (12_345_678.0, "1.2345678E7"), (0.00123, "0.00123"),
        (0.000999, "9.99E-4"), (-2.5e-5, "-2.5E-5"), (Double.leastNonzeroMagnitude * 3, "1.5E-323"),
        (Double(Float(0.1)), "0.10000000149011612"), (1e16, "1.0E16"), (123.456, "123.456"),
        (-98765.4321, "-98765.4321"), (1e100, "1.0E100"), (6.02214076e23, "6.02214076E23"),
        (2e23, "1.9999999999999998E23"), (8.41e21, "8.409999999999999E21"), (Double.leastNonzeroMagnitude * 2, "1.0E-323"),
        (9_007_199_254_740_992, "9.007199254740992E15"),
        (1.0e-3.nextDown, "9.999999999999998E-4"), (1e7.nextDown, "9999999.999999998"),
    ]

    static let floats: [(Float, String)] = [
        (0.1, "0.1"), (1e10, "1.0E10"), (3.14, "3.14"), (16_777_216, "1.6777216E7"), (1.1, "1.1"),
        (0.001, "0.001"), (9_999_999, "9999999.0"), (1e7, "1.0E7"), (-2.5e-5, "-2.5E-5"),
        (Float.greatestFiniteMagnitude, "3.4028235E38"), (Float.leastNonzeroMagnitude, "1.4E-45"),
        (Float.leastNormalMagnitude, "1.17549435E-38"), (1.0 / 3, "0.33333334"), (123.456, "123.456"),
        (0.3, "0.3"), (0, "0.0"), (-0.0, "-0.0"), (123_456_792, "1.23456792E8"), (1e-3, "0.001"),
        (Float.leastNonzeroMagnitude * 14, "2.0E-44"), (4_294_967_296, "4.2949673E9"), (33_554_430, "3.355443E7"), (-1e-5, "-1.0E-5"),
    ]

    @Test func tableHasTheBoundariesAndEnoughRows() {
        #expect(Self.doubles.count + Self.floats.count >= 40)
    }

    @Test(arguments: doubles.indices)
    func doubleMatchesJava(index: Int) {
        let (value, expected) = Self.doubles[index]
        #expect(WireValueFormat.string(value) == expected, "\(value)")
    }

    @Test(arguments: floats.indices)
    func floatMatchesJava(index: Int) {
        let (value, expected) = Self.floats[index]
        #expect(WireValueFormat.string(value) == expected, "\(value)")
    }

    /// The same decimal literal gives different strings as Float and as Double,
    /// because each type has digits of its own.
    @Test func floatAndDoubleDigitsDiffer() {
        #expect(WireValueFormat.string(Float(0.1)) == "0.1")
        #expect(WireValueFormat.string(Double(Float(0.1))) == "0.10000000149011612")
        #expect(WireValueFormat.string(Float(1) / 3) == "0.33333334")
        #expect(WireValueFormat.string(1.0 / 3) == "0.3333333333333333")
    }

    @Test func nonFiniteValuesAreRejected() {
        #expect(WireValueFormat.string(Double.nan) == nil)
        #expect(WireValueFormat.string(Double.infinity) == nil)
        #expect(WireValueFormat.string(-Double.infinity) == nil)
        #expect(WireValueFormat.string(Float.nan) == nil)
        #expect(WireValueFormat.string(Float.infinity) == nil)
        #expect(WireValueFormat.string(-Float.signalingNaN) == nil)
    }

    @Test func integersAndBooleans() {
        #expect(WireValueFormat.string(true) == "true")
        #expect(WireValueFormat.string(false) == "false")
        #expect(WireValueFormat.string(-42) == "-42")
        #expect(WireValueFormat.string(0) == "0")
        #expect(WireValueFormat.string(Int64.min) == "-9223372036854775808")
        #expect(WireValueFormat.string(Int64.max) == "9223372036854775807")
        #expect(WireValueFormat.string(Int.min) == String(Int.min))
    }

    /// Every rendered double reads back as the same double (a random sweep over bit patterns).
    @Test func renderedDoublesRoundTrip() {
        var state: UInt64 = 0x1234_5678
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Double(bitPattern: state)
            guard value.isFinite else { continue }
            let text = WireValueFormat.string(value)!
            #expect(Double(text) == value, "\(text)")
        }
    }
}
