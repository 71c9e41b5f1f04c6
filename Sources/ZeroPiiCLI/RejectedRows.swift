/// The file `--rejects FILE` names: every row a CSV run left out, byte for byte as it
/// came (after conversion to UTF-8, where text that could not be converted is the byte
/// 0xFF), each behind two fields of its own, the line it started on and why it was left
/// out:
///
/// ```
/// zeropii_line,zeropii_reason,id,email
/// 7,"has 3 fields, more than the header's 2 (an unquoted delimiter in a value?)",7,Smith, John
/// ```
///
/// The header, when the input has one, comes first with the two names in front; the
/// fields are joined with the input's delimiter, and a row that ended without a line
/// break gets the input's. After a row is fixed (and the two fields dropped), the file
/// can be tokenized again as it is. It is replaced like `--output`: only by a run that
/// finishes, and a run that stops early leaves what it had in `FILE.partial`.
final class RejectedRows: SkippedRecordSink {
    let output: OutputFile
    /// The rows written so far.
    private(set) var count = 0
    private var delimiter = UInt8(ascii: ",")
    private var lineBreak: [UInt8] = [UInt8(ascii: "\n")]
    /// Whether the last byte written ends a line.
    private var atLineStart = true

    init(output: OutputFile) {
        self.output = output
    }

    /// Sets the delimiter and line break (the input's, once known) and writes the
    /// input's header behind the two field names, or no header for an input without one.
    func start(delimiter: UInt8, lineBreak: UInt8, header: [UInt8]?) throws {
        self.delimiter = delimiter
        self.lineBreak = lineBreak == UInt8(ascii: "\r") ? [lineBreak] : [UInt8(ascii: "\n")]
        guard let header else { return }
        try output.write(Array("zeropii_line".utf8) + [delimiter] + Array("zeropii_reason".utf8) + [delimiter])
        try appendSkippedBytes(header[...])
    }

    /// Writes a whole row.
    func write(line: Int, reason: String, bytes: [UInt8]) throws {
        try beginSkippedRecord(line: line, reason: reason)
        try appendSkippedBytes(bytes[...])
    }

    func beginSkippedRecord(line: Int, reason: String) throws {
        try endLine()
        count += 1
        var prefix = Array("\(line)".utf8)
        prefix.append(delimiter)
        prefix.append(UInt8(ascii: "\""))
        for byte in reason.utf8 {
            if byte == UInt8(ascii: "\"") { prefix.append(byte) }
            prefix.append(byte)
        }
        prefix.append(UInt8(ascii: "\""))
        prefix.append(delimiter)
        try output.write(prefix)
        atLineStart = false
    }

    func appendSkippedBytes(_ bytes: ArraySlice<UInt8>) throws {
        guard let last = bytes.last else { return }
        try output.write(bytes)
        atLineStart = last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r")
    }

    /// Ends the last row with a line break if its bytes had none (the last line of an
    /// input without a final line break).
    func endLine() throws {
        if !atLineStart { try output.write(lineBreak) }
        atLineStart = true
    }
}
