/// Turns typed values into the strings the protocol sends (Docs/Protocol.md, section 4).
///
/// The same number must give the same string, and so the same token, on iOS and on
/// Android, so floating-point numbers are written exactly as Android writes them: Java's
/// `Double.toString` and `Float.toString` with OpenJDK's `FloatingDecimal` algorithm
/// (Android's libcore, and desktop JDKs up to 18; JDK 19 moved to the shortest digits,
/// which differ for some numbers). Plain decimal with at least one fractional digit when
/// 10^-3 <= |x| < 10^7; otherwise `d.dddE-n` with no `+` in the exponent.
package enum WireValueFormat {
    /// `true` or `false`.
    package static func string(_ value: Bool) -> String {
        value ? "true" : "false"
    }

    /// Decimal, `-` for negatives, no leading zeros.
    package static func string(_ value: Int) -> String {
        String(value)
    }

    /// Decimal, `-` for negatives, no leading zeros.
    package static func string(_ value: Int64) -> String {
        String(value)
    }

    /// OpenJDK 17's `Double.toString(double)`, or nil for NaN and the infinities.
    ///
    /// `100` → `"100.0"`, `1e7` → `"1.0E7"`, `0.1 + 0.2` → `"0.30000000000000004"`,
    /// `1e23` → `"9.999999999999999E22"`, `5e-324` → `"4.9E-324"`.
    package static func string(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        return JavaDecimalDigits(magnitudeOf: value).javaText(isNegative: value.sign == .minus)
    }

    /// OpenJDK 17's `Float.toString(float)`, or nil for NaN and the infinities. A
    /// `Float` has digits of its own, often fewer than the `Double` of the same value
    /// (`Float(0.1)` is `"0.1"`), and sometimes more than the shortest that read back
    /// (`Float(123456789)` is `"1.23456792E8"`).
    package static func string(_ value: Float) -> String? {
        guard value.isFinite else { return nil }
        return JavaDecimalDigits(magnitudeOf: value).javaText(isNegative: value.sign == .minus)
    }
}
