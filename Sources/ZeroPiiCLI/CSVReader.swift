/// Reads CSV (RFC 4180) one record at a time from a byte source, keeping each record's
/// exact bytes so untouched fields, quoting and line endings can be written back as
/// they came.
///
/// Fields are separated by the delimiter (`,` `;` tab or `|`); records end with CRLF
/// or LF; a field in double quotes may hold delimiters, quotes (doubled) and line
/// breaks. A UTF-8 byte-order mark at the start is read past (``hasByteOrderMark``
/// says it was there, so it can be written back).
///
/// Without a delimiter given, it is detected from the header line: of `,` `;` tab and
/// `|`, the one found most often outside quotes on the first line that is not blank; on a tie the
/// earlier in that list; when none is found (a single column), `,`.
///
/// A record that breaks the rules (a quote inside an unquoted field, text after a
/// closing quote, a quote never closed, a record over ``maximumRecordBytes``) is
/// reported as malformed with the lines it covers, and reading goes on after it. A
/// quote never closed takes in the rest of the input, as in a spreadsheet, and the
/// report says on which line it was opened.
struct CSVReader {
    struct Field {
        /// Where the field's bytes (quotes included) sit in ``Record/bytes``.
        let range: Range<Int>
        /// The field's value, unquoted and unescaped (invalid UTF-8 shown as U+FFFD).
        let value: String
        let isQuoted: Bool
        /// Whether the unquoted bytes are valid UTF-8: only such a value may be sent.
        let isUTF8: Bool

        init(range: Range<Int>, bytes: some Collection<UInt8>, isQuoted: Bool) {
            self.range = range
            let text = StrictUTF8.decode(bytes)
            value = text ?? String(decoding: bytes, as: UTF8.self)
            isUTF8 = text != nil
            self.isQuoted = isQuoted
        }
    }

    struct Record {
        /// The record's bytes, including its line ending.
        let bytes: [UInt8]
        let fields: [Field]
        /// The physical line the record starts on, counting from 1.
        let line: Int

        /// An empty line: passed through as it is, not a row.
        var isBlank: Bool { fields.count == 1 && !fields[0].isQuoted && fields[0].range.isEmpty }
    }

    struct Malformed: Equatable {
        /// The physical lines the malformed record covers.
        let lines: ClosedRange<Int>
        let reason: String
    }

    enum Item {
        case record(Record)
        case malformed(Malformed)
    }

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// The delimiters detection chooses from, in the order that breaks a tie.
    static let detectableDelimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|")]

    /// A record longer than this is reported and skipped without being held in memory.
    let maximumRecordBytes: Int
    /// The delimiter in use: the one given, or (after the first ``next()``) the one
    /// detected.
    private(set) var delimiter: UInt8
    /// Whether the input started with a UTF-8 byte-order mark (known after the first
    /// ``next()``).
    private(set) var hasByteOrderMark = false

    private let source: () throws -> [UInt8]?
    private let detectsDelimiter: Bool
    private var started = false
    private var buffer: [UInt8] = []
    private var position = 0
    private var exhausted = false
    private var line = 1

    /// - Parameters:
    ///   - delimiter: the field delimiter, or nil to detect it from the header line.
    ///   - maximumRecordBytes: the longest record kept (16 MiB unless a test says less).
    ///   - source: returns the next chunk of bytes, or nil at the end.
    init(delimiter: UInt8? = nil, maximumRecordBytes: Int = 16 << 20, source: @escaping () throws -> [UInt8]?) {
        self.delimiter = delimiter ?? UInt8(ascii: ",")
        self.detectsDelimiter = delimiter == nil
        self.maximumRecordBytes = maximumRecordBytes
        self.source = source
    }

    /// A reader over an input file, in chunks of 1 MiB.
    init(input: InputFile, delimiter: UInt8?) {
        self.init(delimiter: delimiter) { try input.read() }
    }

    /// The next record, a malformed one, or nil at the end of the input.
    /// - Throws: what the source throws (a read error).
    mutating func next() throws -> Item? {
        try readPreamble()
        while true {
            if position >= buffer.count {
                if exhausted { return nil }
                try refill()
                continue
            }
            switch parseRecord(from: position, atEnd: exhausted) {
            case .needMore:
                if buffer.count - position > maximumRecordBytes { return .malformed(try skipOversizedRecord()) }
                try refill()
            case .record(let end, let fields, let lines):
                if end - position > maximumRecordBytes {
                    // Whole in one chunk, but over the limit all the same.
                    let problem = Malformed(lines: line...(line + lines - 1), reason: "the row is longer than \(maximumRecordBytes) bytes")
                    line += lines
                    position = end
                    return .malformed(problem)
                }
                let record = Record(bytes: Array(buffer[position..<end]), fields: fields, line: line)
                line += lines
                position = end
                return .record(record)
            case .malformed(let problem, let resume):
                let consumed = buffer[position..<resume]
                let newlines = consumed.reduce(0) { $0 + ($1 == Self.lineFeed ? 1 : 0) }
                let lastLine = line + newlines - (consumed.last == Self.lineFeed ? 1 : 0)
                let reason: String
                switch problem {
                case .unclosedQuote(let lineOffset):
                    reason = "a quoted field opened on line \(line + lineOffset) is never closed, so it took in the rest of the input"
                case .textAfterClosingQuote: reason = "text follows a closing quote"
                case .quoteInUnquotedField: reason = "a quote inside an unquoted field"
                }
                let item = Malformed(lines: line...max(line, lastLine), reason: reason)
                line += newlines
                position = resume
                return .malformed(item)
            }
        }
    }

    /// Reads past a byte-order mark and detects the delimiter; ``next()`` does it
    /// first if it was not called.
    mutating func readPreamble() throws {
        guard !started else { return }
        started = true
        while buffer.count < Self.byteOrderMark.count && !exhausted { try refill() }
        if buffer.starts(with: Self.byteOrderMark) {
            hasByteOrderMark = true
            position = Self.byteOrderMark.count
        }
        guard detectsDelimiter else { return }
        var counts: [UInt8: Int] = [:]
        var inQuotes = false
        var lineHasText = false
        var scanned = position
        scanning: while true {
            while scanned < buffer.count {
                let byte = buffer[scanned]
                scanned += 1
                if byte == Self.quote {
                    inQuotes.toggle()
                } else if !inQuotes {
                    // Blank lines before the header are passed over.
                    if byte == Self.lineFeed && lineHasText { break scanning }
                    if Self.detectableDelimiters.contains(byte) { counts[byte, default: 0] += 1 }
                }
                if byte != Self.lineFeed && byte != Self.carriageReturn { lineHasText = true }
            }
            if exhausted || buffer.count - position >= maximumRecordBytes { break }
            let shift = position
            try refill()
            scanned -= shift
        }
        var best = delimiter
        var bestCount = 0
        for candidate in Self.detectableDelimiters where counts[candidate, default: 0] > bestCount {
            best = candidate
            bestCount = counts[candidate, default: 0]
        }
        delimiter = best
    }

    private mutating func refill() throws {
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        if let chunk = try source() {
            buffer.append(contentsOf: chunk)
        } else {
            exhausted = true
        }
    }

    /// Skips a record longer than ``maximumRecordBytes`` chunk by chunk, following
    /// quotes, to the line break that ends it (or to the end of the input).
    private mutating func skipOversizedRecord() throws -> Malformed {
        let firstLine = line
        var newlines = 0
        var inQuotes = false
        var quoteOpenedOnLine = firstLine
        var lastByte: UInt8 = 0
        var scanned = position
        while true {
            while scanned < buffer.count {
                let byte = buffer[scanned]
                scanned += 1
                lastByte = byte
                if byte == Self.quote {
                    inQuotes.toggle()
                    if inQuotes { quoteOpenedOnLine = firstLine + newlines }
                } else if byte == Self.lineFeed {
                    newlines += 1
                    if !inQuotes {
                        position = scanned
                        line += newlines
                        return Malformed(
                            lines: firstLine...(firstLine + newlines - 1), reason: "the row is longer than \(maximumRecordBytes) bytes")
                    }
                }
            }
            buffer.removeAll(keepingCapacity: true)
            position = 0
            scanned = 0
            if exhausted { break }
            try refill()
        }
        let lastLine = firstLine + newlines - (lastByte == Self.lineFeed ? 1 : 0)
        line += newlines
        let reason =
            inQuotes
            ? "a quoted field opened on line \(quoteOpenedOnLine) is never closed, so it took in the rest of the input"
            : "the row is longer than \(maximumRecordBytes) bytes"
        return Malformed(lines: firstLine...max(firstLine, lastLine), reason: reason)
    }

    private enum Problem {
        /// The offset is the number of line breaks in the record before the quote.
        case unclosedQuote(lineOffset: Int)
        case textAfterClosingQuote
        case quoteInUnquotedField
    }

    private enum Parse {
        case needMore
        case record(end: Int, fields: [Field], lines: Int)
        case malformed(Problem, resume: Int)
    }

    private static let quote = UInt8(ascii: "\"")
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
                let openedAt = lines
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
                    return .malformed(.unclosedQuote(lineOffset: openedAt), resume: buffer.count)
                }
                fields.append(Field(range: (fieldStart - start)..<(index - start), bytes: value, isQuoted: true))
                if index < buffer.count, buffer[index] != delimiter, buffer[index] != Self.carriageReturn, buffer[index] != Self.lineFeed {
                    return skipLine(from: index, problem: .textAfterClosingQuote, atEnd: atEnd)
                }
                if index < buffer.count, buffer[index] == Self.carriageReturn {
                    if index + 1 >= buffer.count {
                        if !atEnd { return .needMore }
                    } else if buffer[index + 1] != Self.lineFeed {
                        return skipLine(from: index, problem: .textAfterClosingQuote, atEnd: atEnd)
                    }
                }
            } else {
                // Unquoted field: up to a delimiter or the end of the line.
                while index < buffer.count {
                    let byte = buffer[index]
                    if byte == delimiter || byte == Self.lineFeed { break }
                    if byte == Self.carriageReturn {
                        if index + 1 >= buffer.count && !atEnd { return .needMore }
                        if index + 1 < buffer.count && buffer[index + 1] == Self.lineFeed { break }
                    }
                    if byte == Self.quote {
                        return skipLine(from: index, problem: .quoteInUnquotedField, atEnd: atEnd)
                    }
                    index += 1
                }
                if index >= buffer.count && !atEnd { return .needMore }
                fields.append(Field(range: (fieldStart - start)..<(index - start), bytes: buffer[fieldStart..<index], isQuoted: false))
            }
            // After a field: a delimiter, a line ending, or the end of the input.
            if index >= buffer.count {
                return .record(end: index, fields: fields, lines: lines + 1)
            }
            switch buffer[index] {
            case delimiter:
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
    private func skipLine(from index: Int, problem: Problem, atEnd: Bool) -> Parse {
        var end = index
        while end < buffer.count && buffer[end] != Self.lineFeed { end += 1 }
        if end >= buffer.count && !atEnd { return .needMore }
        return .malformed(problem, resume: min(end + 1, buffer.count))
    }
}
