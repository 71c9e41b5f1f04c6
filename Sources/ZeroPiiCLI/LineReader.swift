/// Splits an input into lines (LF or CRLF) without holding more than one chunk and
/// one line: a line longer than ``maximumLineBytes`` is skipped as it streams past and
/// reported as too long.
struct LineReader {
    enum Line: Equatable {
        /// A line's text, without its line ending.
        case text(number: Int, String)
        /// A line longer than the limit; its bytes were dropped.
        case tooLong(number: Int)
        /// A line that is not valid UTF-8, so it cannot be sent as the value it is.
        case notUTF8(number: Int)
    }

    let maximumLineBytes: Int
    private let source: () throws -> [UInt8]?
    private var buffer: [UInt8] = []
    private var position = 0
    private var exhausted = false
    private var discarding = false
    private var number = 1

    /// - Parameters:
    ///   - maximumLineBytes: the longest line kept (4096 bytes: the longest value).
    ///   - source: returns the next chunk of bytes, or nil at the end.
    init(maximumLineBytes: Int = 4096, source: @escaping () throws -> [UInt8]?) {
        self.maximumLineBytes = maximumLineBytes
        self.source = source
    }

    /// True when every line has been returned.
    var isAtEnd: Bool { exhausted && position >= buffer.count && !discarding }

    /// The next line already read, or nil when more input is needed (``fill()``) or
    /// the input has ended (``isAtEnd``).
    mutating func nextBufferedLine() -> Line? {
        if let lineFeed = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) {
            defer { position = lineFeed + 1 }
            return takeLine(upTo: lineFeed)
        }
        if exhausted {
            if position < buffer.count || discarding {
                defer { position = buffer.count }
                return takeLine(upTo: buffer.count)
            }
            return nil
        }
        // No line break yet: a line that is already too long is dropped as it comes.
        if buffer.count - position > maximumLineBytes + 1 {
            discarding = true
            buffer.removeAll(keepingCapacity: true)
            position = 0
        }
        return nil
    }

    /// Reads the next chunk (blocking until there is one or the input ends).
    /// - Throws: what the source throws.
    mutating func fill() throws {
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

    private mutating func takeLine(upTo end: Int) -> Line {
        defer { number += 1 }
        if discarding {
            discarding = false
            return .tooLong(number: number)
        }
        var last = end
        if last > position && buffer[last - 1] == UInt8(ascii: "\r") { last -= 1 }
        if last - position > maximumLineBytes { return .tooLong(number: number) }
        guard let text = StrictUTF8.decode(buffer[position..<last]) else { return .notUTF8(number: number) }
        return .text(number: number, text)
    }
}
