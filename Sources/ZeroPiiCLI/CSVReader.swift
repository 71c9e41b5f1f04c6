/// Reads CSV (RFC 4180) one record at a time from a byte source, keeping each record's
/// exact bytes so untouched fields, quoting and line endings can be written back as
/// they came.
///
/// Fields are separated by the delimiter (`,` `;` tab or `|`); records end with CRLF,
/// LF or, in a file whose first line ends with a lone CR (Excel for Mac's "Macintosh
/// CSV"), CR; a field in double quotes may hold delimiters, quotes (doubled) and line
/// breaks. The bytes are UTF-8 without a byte-order mark (``DecodedInput`` sees to
/// both).
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
        /// The physical lines it covers (more than one when a quoted field holds line breaks).
        var lineCount = 1

        /// The physical line the record ends on.
        var lastLine: Int { line + lineCount - 1 }

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

    /// The delimiters detection chooses from, in the order that breaks a tie.
    static let detectableDelimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|")]

    /// A record longer than this is reported and skipped without being held in memory.
    let maximumRecordBytes: Int
    /// The delimiter in use: the one given, or (after the first ``next()``) the one
    /// detected.
    private(set) var delimiter: UInt8
    /// The byte that ends a line: LF (also when preceded by CR), or CR in a file whose
    /// first line ends with a lone CR (known after the first ``next()``).
    private(set) var lineBreak = Self.lineFeed

    /// Receives the bytes of every malformed record as it is passed over (for
    /// `--rejects`), before ``next()`` reports it.
    var skippedRecords: (any SkippedRecordSink)?

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

    /// A reader over an input, in chunks of up to 1 MiB.
    init(input: DecodedInput, delimiter: UInt8?) {
        self.init(delimiter: delimiter) { try input.read() }
    }

    /// True when no whole line is buffered and the input has not ended: the next
    /// ``next()`` may wait for the source (a slow pipe), so what is pending should go out
    /// first.
    var needsInput: Bool { !exhausted && !buffer[position...].contains(lineBreak) }

    /// Whether lines end with a lone CR.
    private var endsLinesWithCarriageReturn: Bool { lineBreak == Self.carriageReturn }

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
                try refillUntilLineBreak()
            case .record(let end, let fields, let lines):
                if end - position > maximumRecordBytes {
                    // Whole in one chunk, but over the limit all the same.
                    let problem = Malformed(lines: line...(line + lines - 1), reason: "the row is longer than \(maximumRecordBytes) bytes")
                    try skippedRecords?.beginSkippedRecord(line: line, reason: problem.reason)
                    try skippedRecords?.appendSkippedBytes(buffer[position..<end])
                    line += lines
                    position = end
                    return .malformed(problem)
                }
                let record = Record(bytes: Array(buffer[position..<end]), fields: fields, line: line, lineCount: lines)
                line += lines
                position = end
                return .record(record)
            case .malformed(let problem, let resume):
                let consumed = buffer[position..<resume]
                let newlines = consumed.reduce(0) { $0 + ($1 == lineBreak ? 1 : 0) }
                let lastLine = line + newlines - (endsWithLineBreak(consumed) ? 1 : 0)
                let reason: String
                switch problem {
                case .unclosedQuote(let lineOffset):
                    reason = "a quoted field opened on line \(line + lineOffset) is never closed, so it took in the rest of the input"
                case .textAfterClosingQuote: reason = "text follows a closing quote"
                case .quoteInUnquotedField: reason = "a quote inside an unquoted field"
                }
                let item = Malformed(lines: line...max(line, lastLine), reason: reason)
                try skippedRecords?.beginSkippedRecord(line: line, reason: reason)
                try skippedRecords?.appendSkippedBytes(consumed)
                line += newlines
                position = resume
                return .malformed(item)
            }
        }
    }

    /// Detects the line break and the delimiter from the first line; ``next()`` does it
    /// first if it was not called.
    mutating func readPreamble() throws {
        guard !started else { return }
        started = true
        var counts: [UInt8: Int] = [:]
        var inQuotes = false
        var lineHasText = false
        var lineBreakFound = false
        var scanned = position
        scanning: while true {
            while scanned < buffer.count {
                let byte = buffer[scanned]
                if byte == Self.quote {
                    inQuotes.toggle()
                } else if !inQuotes && (byte == Self.lineFeed || byte == Self.carriageReturn) {
                    if byte == Self.carriageReturn && !lineBreakFound {
                        // A CR decides only once the byte after it is known.
                        if scanned + 1 >= buffer.count && !exhausted { break }
                        let followedByLineFeed = scanned + 1 < buffer.count && buffer[scanned + 1] == Self.lineFeed
                        if !followedByLineFeed { lineBreak = Self.carriageReturn }
                    }
                    lineBreakFound = true
                    // Blank lines before the header are passed over.
                    if byte == lineBreak && lineHasText { break scanning }
                } else if !inQuotes && Self.detectableDelimiters.contains(byte) {
                    counts[byte, default: 0] += 1
                }
                if byte != Self.lineFeed && byte != Self.carriageReturn { lineHasText = true }
                scanned += 1
            }
            if exhausted || buffer.count - position >= maximumRecordBytes { break }
            let shift = position
            try refill()
            scanned -= shift
        }
        guard detectsDelimiter else { return }
        var best = delimiter
        var bestCount = 0
        for candidate in Self.detectableDelimiters where counts[candidate, default: 0] > bestCount {
            best = candidate
            bestCount = counts[candidate, default: 0]
        }
        delimiter = best
    }

    /// Whether `bytes` end with this input's line break (a CR's LF included).
    private func endsWithLineBreak(_ bytes: some BidirectionalCollection<UInt8>) -> Bool {
        guard let last = bytes.last else { return false }
        if last == lineBreak { return true }
        return endsLinesWithCarriageReturn && last == Self.lineFeed && bytes.dropLast().last == Self.carriageReturn
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

    /// Reads chunks until one brings a line break (no record can end before one), the
    /// input ends, or the record outgrows the limit: parsing a long record again after
    /// every chunk would take time quadratic in its length.
    private mutating func refillUntilLineBreak() throws {
        while true {
            let kept = buffer.count - position
            try refill()
            let fresh = buffer[(position + kept)...]
            if exhausted || fresh.contains(lineBreak) || buffer.count - position > maximumRecordBytes { return }
        }
    }

    /// Skips a record longer than ``maximumRecordBytes`` chunk by chunk, following
    /// quotes, to the line break that ends it (or to the end of the input).
    private mutating func skipOversizedRecord() throws -> Malformed {
        let firstLine = line
        // The reason known now: a quote never closed also makes the row this long.
        try skippedRecords?.beginSkippedRecord(line: firstLine, reason: "the row is longer than \(maximumRecordBytes) bytes")
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
                } else if byte == lineBreak {
                    newlines += 1
                    if !inQuotes {
                        // A CR's LF belongs to the same line break.
                        if endsLinesWithCarriageReturn && scanned < buffer.count && buffer[scanned] == Self.lineFeed { scanned += 1 }
                        try skippedRecords?.appendSkippedBytes(buffer[position..<scanned])
                        position = scanned
                        line += newlines
                        return Malformed(
                            lines: firstLine...(firstLine + newlines - 1), reason: "the row is longer than \(maximumRecordBytes) bytes")
                    }
                }
            }
            try skippedRecords?.appendSkippedBytes(buffer[position...])
            buffer.removeAll(keepingCapacity: true)
            position = 0
            scanned = 0
            if exhausted { break }
            try refill()
        }
        let lastLine = firstLine + newlines - (lastByte == lineBreak ? 1 : 0)
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
        // With CR line breaks, an LF here is the rest of a CRLF split between two reads:
        // part of the record's bytes (so it is written back), not of its first field.
        if endsLinesWithCarriageReturn && index < buffer.count && buffer[index] == Self.lineFeed { index += 1 }
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
                    if byte == lineBreak { lines += 1 }
                    value.append(byte)
                    index += 1
                }
                if !closed {
                    if !atEnd { return .needMore }
                    return .malformed(.unclosedQuote(lineOffset: openedAt), resume: buffer.count)
                }
                fields.append(Field(range: (fieldStart - start)..<(index - start), bytes: value, isQuoted: true))
                if index < buffer.count, buffer[index] != delimiter, buffer[index] != Self.carriageReturn, buffer[index] != lineBreak {
                    return skipLine(from: index, problem: .textAfterClosingQuote, atEnd: atEnd)
                }
                if !endsLinesWithCarriageReturn, index < buffer.count, buffer[index] == Self.carriageReturn {
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
                    if byte == delimiter || byte == lineBreak { break }
                    if byte == Self.carriageReturn && !endsLinesWithCarriageReturn {
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
            case Self.carriageReturn where !endsLinesWithCarriageReturn:
                // Only a CR before an LF ends a field here, so this is CRLF.
                return .record(end: min(index + 2, buffer.count), fields: fields, lines: lines + 1)
            case Self.carriageReturn:
                // A lone CR, or a CRLF: the LF belongs to the same line break. A CR at the
                // end of what has arrived ends the record now (a slow producer's row goes
                // out at once); an LF that then follows is taken by the next record.
                let end = index + 1 < buffer.count && buffer[index + 1] == Self.lineFeed ? index + 2 : index + 1
                return .record(end: end, fields: fields, lines: lines + 1)
            default:
                return .record(end: index + 1, fields: fields, lines: lines + 1)
            }
        }
    }

    /// Skips to the end of the current physical line after a malformed record.
    private func skipLine(from index: Int, problem: Problem, atEnd: Bool) -> Parse {
        var end = index
        while end < buffer.count && buffer[end] != lineBreak { end += 1 }
        if end >= buffer.count && !atEnd { return .needMore }
        if endsLinesWithCarriageReturn && end + 1 < buffer.count && buffer[end + 1] == Self.lineFeed { end += 1 }
        return .malformed(problem, resume: min(end + 1, buffer.count))
    }
}

/// Takes the records a ``CSVReader`` passes over as malformed, byte for byte, as they
/// stream past (one may be far larger than the reader keeps in memory).
protocol SkippedRecordSink: AnyObject {
    /// A malformed record starts on `line`; its bytes follow.
    func beginSkippedRecord(line: Int, reason: String) throws
    func appendSkippedBytes(_ bytes: ArraySlice<UInt8>) throws
}
