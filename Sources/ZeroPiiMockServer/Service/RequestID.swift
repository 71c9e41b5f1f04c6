/// The envelope's request id (`rid`, Docs/Protocol.md section 5): a UUID written in lowercase,
/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
///
/// Checked on UTF-8 bytes: counting `Character`s would let one "character" (a base
/// letter with thousands of combining marks) be megabytes long.
enum RequestID {
    static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) else {
                    return false
                }
            }
        }
        return true
    }
}
