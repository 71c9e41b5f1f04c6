/// Text from bytes that must be UTF-8.
///
/// `String(decoding:as:)` replaces every invalid sequence with U+FFFD, so `M\xFCller`
/// and `M\xE4ller` from a Windows-1252 file became the same string and got the same
/// token. Values are read with this instead, and a value that is not UTF-8 is refused.
enum StrictUTF8 {
    /// The bytes as a string, or nil when they are not valid UTF-8. Valid UTF-8 decodes
    /// to exactly the same bytes; an invalid sequence is replaced, so the two differ.
    static func decode<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}
