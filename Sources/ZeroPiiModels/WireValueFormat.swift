import Foundation

/// Turns typed values into the strings the protocol sends (PROTOCOL.md, section 4).
///
/// The same number must give the same string, and so the same token, on iOS and on
/// Android, so floating-point numbers are written the way Java's `Double.toString` and
/// `Float.toString` write them (JDK 19 and later): the shortest digits that read back
/// as the same number; plain decimal with at least one fractional digit when
/// 10^-3 <= |x| < 10^7; otherwise `d.dddE-n` with no `+` in the exponent.
public enum WireValueFormat {
    /// `true` or `false`.
    public static func string(_ value: Bool) -> String {
        value ? "true" : "false"
    }

    /// Decimal, `-` for negatives, no leading zeros.
    public static func string(_ value: Int) -> String {
        String(value)
    }

    /// Decimal, `-` for negatives, no leading zeros.
    public static func string(_ value: Int64) -> String {
        String(value)
    }

    /// Java's `Double.toString`, or nil for NaN and the infinities.
    public static func string(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        return javaStyle(
            shortest: value.description,
            isNegative: value.sign == .minus,
            twoDigits: String(format: "%.1e", value),
            roundTrips: { Double($0) == value }
        )
    }

    /// Java's `Float.toString`, or nil for NaN and the infinities. The digits are the
    /// shortest that read back as the same `Float`, which are often fewer than a
    /// `Double` of the same value needs (`Float(0.1)` is `"0.1"`).
    public static func string(_ value: Float) -> String? {
        guard value.isFinite else { return nil }
        return javaStyle(
            shortest: value.description,
            isNegative: value.sign == .minus,
            twoDigits: String(format: "%.1e", Double(value)),
            roundTrips: { Float($0) == value }
        )
    }

    /// Re-renders Swift's shortest round-trip description in Java's layout.
    ///
    /// - Parameters:
    ///   - shortest: Swift's `description` (`"3.14"`, `"1e-05"`, `"1.5e+16"`, `"-0.0"`).
    ///   - twoDigits: the value correctly rounded to two significant digits. Java
    ///     always writes at least two digits in scientific form, and when one digit
    ///     would do it picks the two-digit decimal closest to the value
    ///     (`4.9E-324`, not `5.0E-324`).
    private static func javaStyle(
        shortest: String, isNegative: Bool, twoDigits: String, roundTrips: (String) -> Bool
    ) -> String {
        var (digits, pointPosition) = decimalDigits(of: shortest)
        let sign = isNegative ? "-" : ""
        guard !digits.isEmpty else { return sign + "0.0" }

        if digits.count == 1 {
            let (closer, closerPoint) = decimalDigits(of: twoDigits)
            if closer.count == 2, roundTrips(twoDigits) {
                (digits, pointPosition) = (closer, closerPoint)
            }
        }

        // The value is 0.d1d2... × 10^pointPosition, so its decimal exponent is one less.
        let exponent = pointPosition - 1
        if exponent >= -3 && exponent < 7 {
            if pointPosition <= 0 {
                return sign + "0." + String(repeating: "0", count: -pointPosition) + digits
            }
            if pointPosition >= digits.count {
                return sign + digits + String(repeating: "0", count: pointPosition - digits.count) + ".0"
            }
            let split = digits.index(digits.startIndex, offsetBy: pointPosition)
            return sign + digits[..<split] + "." + digits[split...]
        }
        let first = digits.prefix(1)
        let rest = digits.dropFirst()
        return sign + first + "." + (rest.isEmpty ? "0" : rest) + "E" + String(exponent)
    }

    /// The significant digits of a decimal string (no leading or trailing zeros) and
    /// the position of the decimal point relative to the first of them.
    private static func decimalDigits(of text: String) -> (digits: String, pointPosition: Int) {
        var mantissa = Substring(text)
        var exponent = 0
        if let marker = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<marker]
            exponent = Int(text[text.index(after: marker)...]) ?? 0
        }
        if mantissa.first == "-" || mantissa.first == "+" { mantissa = mantissa.dropFirst() }
        let integerDigits = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        var digits = mantissa.filter { $0 != "." }
        var pointPosition = integerDigits + exponent
        while digits.first == "0" {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.last == "0" {
            digits.removeLast()
        }
        return (String(digits), pointPosition)
    }
}
