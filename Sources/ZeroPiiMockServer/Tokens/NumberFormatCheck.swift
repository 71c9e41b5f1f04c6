/// Whether a value is a number in a form Docs/Protocol.md section 4 produces, and which
/// digits a token of the same shape may have.
///
/// The forms are an `Int` in decimal (`0`, `-42`, never `-0`) and what Java's
/// `Double.toString` and `Float.toString` return (`100.0`, `-0.0`, `1.23456792E8`,
/// `4.9E-324`): an optional `-`, an integer part without leading zeros, and, with a
/// fraction of one or more digits, an optional exponent `E`, optional `-` and an
/// integer without leading zeros other than `-0`. Such values get `dataType`
/// `"number"`; everything else, `007`, `-0`, `1e5`, `1E5`, `.5`, is a string.
enum NumberFormatCheck {
    /// One digit of a number: where it is, and the lowest digit a token may put there.
    struct Digit {
        let position: Int
        let lowest: UInt32
    }

    static func isNumber(_ value: String) -> Bool {
        digits(of: Array(value.unicodeScalars)) != nil
    }

    static func isNumber(_ scalars: [Unicode.Scalar]) -> Bool {
        digits(of: scalars) != nil
    }

    /// The digits of a number and the lowest value each may take in a token of the same
    /// shape: 1 for the first of several digits (no leading zero) and for a lone digit
    /// after `-` where `0` would make `-0`; 0 otherwise. Nil when it is not a number.
    static func digits(of scalars: [Unicode.Scalar]) -> [Digit]? {
        var index = 0
        func isDigit(_ position: Int) -> Bool {
            position < scalars.count && (0x30...0x39).contains(scalars[position].value)
        }
        func skip(_ ascii: UInt32) -> Bool {
            guard index < scalars.count, scalars[index].value == ascii else { return false }
            index += 1
            return true
        }
        func field() -> Range<Int> {
            let start = index
            while isDigit(index) { index += 1 }
            return start..<index
        }
        var result: [Digit] = []
        /// Appends an integer field's digits; false when it is empty or not canonical.
        func appendInteger(_ range: Range<Int>, negative: Bool, zeroMayBeNegative: Bool) -> Bool {
            guard !range.isEmpty else { return false }
            let first = scalars[range.lowerBound].value
            if range.count > 1 && first == 0x30 { return false }
            if range.count == 1 && first == 0x30 && negative && !zeroMayBeNegative { return false }
            for position in range {
                let lowest: UInt32 = position == range.lowerBound && (range.count > 1 || (negative && !zeroMayBeNegative)) ? 1 : 0
                result.append(Digit(position: position, lowest: lowest))
            }
            return true
        }
        let negative = skip(0x2D)
        let integer = field()
        guard skip(0x2E) else {
            guard index == scalars.count, appendInteger(integer, negative: negative, zeroMayBeNegative: false) else { return nil }
            return result
        }
        let fraction = field()
        guard !fraction.isEmpty, appendInteger(integer, negative: negative, zeroMayBeNegative: true) else { return nil }
        for position in fraction { result.append(Digit(position: position, lowest: 0)) }
        if skip(0x45) {
            let exponentNegative = skip(0x2D)
            guard appendInteger(field(), negative: exponentNegative, zeroMayBeNegative: false) else { return nil }
        }
        return index == scalars.count ? result : nil
    }
}
