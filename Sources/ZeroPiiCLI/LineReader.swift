import ZeroPiiWire

/// Splits an input into lines (LF or CRLF; or CR, in an input whose first line ends
/// with a lone CR, as classic Mac text does) without holding more than one chunk and
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
    /// The bytes dropped from the front of the buffer so far.
    private var dropped = 0
    /// The byte that ends a line, once the first line break has shown it.
    private var lineBreak: UInt8?

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// - Parameters:
    ///   - maximumLineBytes: the longest line kept (4096 bytes: the longest value).
    ///   - source: returns the next chunk of bytes, or nil at the end.
    init(maximumLineBytes: Int = WireLimits.maximumValueBytes, source: @escaping () throws -> [UInt8]?) {
        self.maximumLineBytes = maximumLineBytes
        self.source = source
    }

    /// The bytes of the input taken as lines so far, for a progress bar.
    var consumedBytes: Int { dropped + position }

    /// True when every line has been returned.
    var isAtEnd: Bool { exhausted && position >= buffer.count && !discarding }

    /// The next line already read, or nil when more input is needed (``fill()``) or
    /// the input has ended (``isAtEnd``).
    mutating func nextBufferedLine() -> Line? {
        if lineBreak == nil { lineBreak = firstLineBreak() }
        if let end = buffer[position...].firstIndex(of: lineBreak ?? Self.lineFeed) {
            defer { position = end + 1 }
            return takeLine(upTo: end)
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
            dropped += buffer.count
            buffer.removeAll(keepingCapacity: true)
            position = 0
        }
        return nil
    }

    /// Reads the next chunk (blocking until there is one or the input ends).
    /// - Throws: what the source throws.
    mutating func fill() throws {
        if position > 0 {
            dropped += position
            buffer.removeFirst(position)
            position = 0
        }
        if let chunk = try source() {
            buffer.append(contentsOf: chunk)
        } else {
            exhausted = true
        }
    }

    /// The line break the first one in the buffer shows: LF (also after a CR), or CR
    /// when a lone one comes first; nil while it cannot be told yet.
    private func firstLineBreak() -> UInt8? {
        guard let first = buffer[position...].firstIndex(where: { $0 == Self.lineFeed || $0 == Self.carriageReturn }) else { return nil }
        if buffer[first] == Self.lineFeed { return Self.lineFeed }
        if first + 1 < buffer.count { return buffer[first + 1] == Self.lineFeed ? Self.lineFeed : Self.carriageReturn }
        return exhausted ? Self.carriageReturn : nil
    }

    private mutating func takeLine(upTo end: Int) -> Line {
        defer { number += 1 }
        // With CR line breaks, the LF of a CRLF among them starts the next line.
        if lineBreak == Self.carriageReturn && position < end && buffer[position] == Self.lineFeed { position += 1 }
        if discarding {
            discarding = false
            return .tooLong(number: number)
        }
        var last = end
        if lineBreak != Self.carriageReturn && last > position && buffer[last - 1] == Self.carriageReturn { last -= 1 }
        if last - position > maximumLineBytes { return .tooLong(number: number) }
        guard let text = StrictUTF8.decode(buffer[position..<last]) else { return .notUTF8(number: number) }
        return .text(number: number, text)
    }
}
