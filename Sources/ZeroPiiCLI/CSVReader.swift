import Foundation

/// Reads CSV (RFC 4180) one record at a time from a byte source, keeping each record's
/// exact bytes so untouched fields, quoting and line endings can be written back as
/// they came.
///
/// Fields are separated by `,`; records end with CRLF or LF; a field in double quotes
/// may hold commas, quotes (doubled) and line breaks. A record that breaks these rules
/// (a quote inside an unquoted field, text after a closing quote, a quote never
/// closed) is reported as malformed with its line number, and reading goes on at the
/// next line.
struct CSVReader {
    struct Field {
        /// Where the field's bytes (quotes included) sit in ``Record/bytes``.
        let range: Range<Int>
        /// The field's value, unquoted and unescaped.
        let value: String
        let isQuoted: Bool
    }

    struct Record {
        /// The record's bytes, including its line ending.
        let bytes: [UInt8]
        let fields: [Field]
        /// The physical line the record starts on, counting from 1.
        let line: Int
    }

    enum Item {
        case record(Record)
        case malformed(line: Int, reason: String)
    }

    private let source: () -> [UInt8]?
    private var buffer: [UInt8] = []
    private var position = 0
    private var exhausted = false
    private var line = 1

    /// - Parameter source: returns the next chunk of bytes, or nil at the end.
    init(source: @escaping () -> [UInt8]?) {
        self.source = source
    }

    /// A reader over a file handle, in chunks of 1 MiB.
    init(handle: FileHandle) {
        self.init {
            let data = handle.readData(ofLength: 1 << 20)
            return data.isEmpty ? nil : [UInt8](data)
        }
    }

    /// The next record, a malformed line, or nil at the end of the input.
    mutating func next() -> Item? {
        while true {
            if position >= buffer.count {
                if exhausted { return nil }
                refill()
                continue
            }
            switch parseRecord(from: position, atEnd: exhausted) {
            case .needMore:
                refill()
            case .record(let end, let fields, let lines):
                let record = Record(bytes: Array(buffer[position..<end]), fields: fields, line: line)
                line += lines
                position = end
                return .record(record)
            case .malformed(let reason, let resume, let lines):
                let item = Item.malformed(line: line, reason: reason)
                line += lines
                position = resume
                return item
            }
        }
    }

    private mutating func refill() {
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        if let chunk = source() {
            buffer.append(contentsOf: chunk)
        } else {
            exhausted = true
        }
    }

    private enum Parse {
        case needMore
        case record(end: Int, fields: [Field], lines: Int)
        case malformed(reason: String, resume: Int, lines: Int)
    }

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let lineFeed = UInt8(ascii: "\n")

    /// Parses one record starting at `start`. Offsets in the fields are relative to
    /// `start`.
    private func parseRecord(from start: Int, atEnd: Bool) -> Parse {
        var fields: [Field] = []
        var index = start
        var lines = 0
        while true {
            let fieldStart = index
            if index < buffer.count && buffer[index] == Self.quote {
                // Quoted field.
                var value = [UInt8]()
                index += 1
                var closed = false
                while index < buffer.count {
                    let byte = buffer[index]
                    if byte == Self.quote {
                        if index + 1 < buffer.count && buffer[index + 1] == Self.quote {
                            value.append(Self.quote)
                            index += 2
                            continue
                        }
                        if index + 1 >= buffer.count && !atEnd { return .needMore }
                        index += 1
                        closed = true
                        break
                    }
                    if byte == Self.lineFeed { lines += 1 }
                    value.append(byte)
                    index += 1
                }
                if !closed {
                    if !atEnd { return .needMore }
                    return .malformed(reason: "a quoted field is never closed", resume: buffer.count, lines: lines)
                }
                fields.append(Field(range: (fieldStart - start)..<(index - start), value: String(decoding: value, as: UTF8.self), isQuoted: true))
                if index < buffer.count, buffer[index] != Self.comma, buffer[index] != Self.carriageReturn, buffer[index] != Self.lineFeed {
                    return skipLine(from: index, reason: "text follows a closing quote", lines: lines, atEnd: atEnd)
                }
                if index < buffer.count, buffer[index] == Self.carriageReturn {
                    if index + 1 >= buffer.count {
                        if !atEnd { return .needMore }
                    } else if buffer[index + 1] != Self.lineFeed {
                        return skipLine(from: index, reason: "text follows a closing quote", lines: lines, atEnd: atEnd)
                    }
                }
            } else {
                // Unquoted field: up to a comma or the end of the line.
                while index < buffer.count {
                    let byte = buffer[index]
                    if byte == Self.comma || byte == Self.lineFeed { break }
                    if byte == Self.carriageReturn {
                        if index + 1 >= buffer.count && !atEnd { return .needMore }
                        if index + 1 < buffer.count && buffer[index + 1] == Self.lineFeed { break }
                    }
                    if byte == Self.quote {
                        return skipLine(from: index, reason: "a quote inside an unquoted field", lines: lines, atEnd: atEnd)
                    }
                    index += 1
                }
                if index >= buffer.count && !atEnd { return .needMore }
                fields.append(
                    Field(
                        range: (fieldStart - start)..<(index - start), value: String(decoding: buffer[fieldStart..<index], as: UTF8.self),
                        isQuoted: false))
            }
            // After a field: a comma, a line ending, or the end of the input.
            if index >= buffer.count {
                return .record(end: index, fields: fields, lines: lines + 1)
            }
            switch buffer[index] {
            case Self.comma:
                index += 1
                if index >= buffer.count && !atEnd { return .needMore }
            case Self.carriageReturn:
                return .record(end: min(index + 2, buffer.count), fields: fields, lines: lines + 1)
            default:
                return .record(end: index + 1, fields: fields, lines: lines + 1)
            }
        }
    }

    /// Skips to the end of the current physical line after a malformed record.
    private func skipLine(from index: Int, reason: String, lines: Int, atEnd: Bool) -> Parse {
        var end = index
        while end < buffer.count && buffer[end] != Self.lineFeed { end += 1 }
        if end >= buffer.count && !atEnd { return .needMore }
        return .malformed(reason: reason, resume: min(end + 1, buffer.count), lines: lines + 1)
    }
}
