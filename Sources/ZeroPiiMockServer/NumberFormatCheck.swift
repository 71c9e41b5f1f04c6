/// Whether a value is a decimal number in the form PROTOCOL.md section 4 produces:
/// optional `-`, digits, optional fraction, optional `E` exponent. Such values get
/// `dataType` `"number"`.
enum NumberFormatCheck {
    static func isNumber(_ value: String) -> Bool {
        var bytes = Array(value.utf8)[...]
        func digits() -> Bool {
            let start = bytes.startIndex
            while let first = bytes.first, (0x30...0x39).contains(first) { bytes = bytes.dropFirst() }
            return bytes.startIndex > start
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard digits() else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() else { return false }
        }
        if bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() else { return false }
        }
        return bytes.isEmpty
    }
}
