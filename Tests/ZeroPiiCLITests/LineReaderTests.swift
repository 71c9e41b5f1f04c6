import Testing

@testable import ZeroPiiCLI

struct LineReaderTests {
    static func lines(_ text: String, chunkSize: Int, maximumLineBytes: Int = 4096) -> [LineReader.Line] {
        lines(Array(text.utf8), chunkSize: chunkSize, maximumLineBytes: maximumLineBytes)
    }

    static func lines(_ input: [UInt8], chunkSize: Int, maximumLineBytes: Int = 4096) -> [LineReader.Line] {
        var bytes = input[...]
        var reader = LineReader(maximumLineBytes: maximumLineBytes) {
            guard !bytes.isEmpty else { return nil }
            defer { bytes = bytes.dropFirst(chunkSize) }
            return Array(bytes.prefix(chunkSize))
        }
        var lines: [LineReader.Line] = []
        while !reader.isAtEnd {
            if let line = reader.nextBufferedLine() {
                lines.append(line)
            } else if !reader.isAtEnd {
                // The source never throws.
                try? reader.fill()
            }
        }
        return lines
    }

    @Test(arguments: [1, 2, 5, 1 << 16])
    func linesEndWithLFOrCRLFAndTheLastNeedsNoLineBreak(chunkSize: Int) {
        #expect(
            Self.lines("a@b.io\r\n\n42\nlast", chunkSize: chunkSize) == [
                .text(number: 1, "a@b.io"), .text(number: 2, ""), .text(number: 3, "42"), .text(number: 4, "last"),
            ])
        #expect(Self.lines("", chunkSize: chunkSize).isEmpty)
        #expect(Self.lines("\n", chunkSize: chunkSize) == [.text(number: 1, "")])
    }

    @Test(arguments: [1, 3, 1 << 16])
    func aLineOverTheLimitIsDroppedAsItStreams(chunkSize: Int) {
        let text = "1234\r\n12345\nabcdefghijklmnopqrstuvwxyz\nok\n" + String(repeating: "z", count: 30)
        #expect(
            Self.lines(text, chunkSize: chunkSize, maximumLineBytes: 4) == [
                .text(number: 1, "1234"), .tooLong(number: 2), .tooLong(number: 3), .text(number: 4, "ok"), .tooLong(number: 5),
            ])
    }

    /// Found from outside: `M\xFCller` and `M\xE4ller` (Windows-1252) were both read as
    /// `M\u{FFFD}ller` and got one token. A line that is not UTF-8 is refused instead.
    @Test(arguments: [1, 2, 1 << 16])
    func aLineThatIsNotUTF8IsRefusedNotReplaced(chunkSize: Int) {
        let input = Array("ok\nM".utf8) + [0xFC] + Array("ller\nM".utf8) + [0xE4] + Array("ller\r\n\u{FFFD}\n".utf8)
        #expect(
            Self.lines(input, chunkSize: chunkSize) == [
                .text(number: 1, "ok"), .notUTF8(number: 2), .notUTF8(number: 3), .text(number: 4, "\u{FFFD}"),
            ])
    }
}
