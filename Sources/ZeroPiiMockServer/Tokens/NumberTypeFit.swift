import ZeroPiiWire

/// Which types a number in a form of Docs/Protocol.md section 4 fits, so that its token
/// can fit the same ones (section 10): an integer is within 32-bit range, within 64-bit
/// range, or wider; a decimal is a finite `Double`, a finite `Float`, both or neither,
/// each only when that type's Java form (``WireValueFormat``) is the text itself.
///
/// Tokens of vault format 4 stay in their value's class: the cipher walks its keyed
/// cycle past numbers of another class. Walking the one cycle through a format and
/// keeping the members of one class is again one cycle through that class, so tokens
/// stay unique, and a value shares its token with nobody.
enum NumberTypeFit: Equatable {
    case int32
    case int64
    case widerInteger
    case decimal(double: Bool, float: Bool)

    /// The class of `text`, a number as ``NumberFormatCheck`` accepts it (ASCII only).
    init(_ text: String) {
        guard text.utf8.contains(UInt8(ascii: ".")) else {
            if Int32(text) != nil {
                self = .int32
            } else if Int64(text) != nil {
                self = .int64
            } else {
                self = .widerInteger
            }
            return
        }
        let double = Double(text).flatMap(WireValueFormat.string) == text
        let float = Float(text).flatMap(WireValueFormat.string) == text
        self = .decimal(double: double, float: float)
    }
}
