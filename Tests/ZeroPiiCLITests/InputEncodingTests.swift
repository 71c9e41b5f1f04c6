import Foundation
import Testing

@testable import ZeroPiiCLI

/// The conversions to UTF-8 behind `--encoding` and the byte-order marks, checked
/// against Foundation's own converters (which nobody here wrote) and at every split
/// between chunks.
struct InputEncodingTests {
    /// Converts `bytes` fed in chunks of `chunkSize`.
    static func convert(_ bytes: [UInt8], from encoding: InputEncoding, chunkSize: Int) -> [UInt8] {
        var transcoder = UTF8Transcoder(encoding: encoding)
        var output: [UInt8] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            output += transcoder.convert(Array(rest.prefix(chunkSize)))
            rest = rest.dropFirst(chunkSize)
        }
        return output + transcoder.finish()
    }

    /// Reads all of `bytes` through a ``DecodedInput`` fed `chunkSize` bytes at a time.
    static func decode(_ bytes: [UInt8], declared: InputEncoding?, chunkSize: Int) throws -> (bytes: [UInt8], input: DecodedInput) {
        var rest = bytes[...]
        let input = DecodedInput(name: "'in.csv'", declared: declared) {
            guard !rest.isEmpty else { return nil }
            defer { rest = rest.dropFirst(chunkSize) }
            return Array(rest.prefix(chunkSize))
        }
        var output: [UInt8] = []
        while let chunk = try input.read() { output += chunk }
        return (output, input)
    }

    /// Every byte of ISO-8859-1 and every defined byte of windows-1252 converts as
    /// Foundation converts it; the five bytes windows-1252 leaves undefined become the C1
    /// controls of the same number, as the WHATWG Encoding Standard says.
    @Test func singleByteEncodingsMatchFoundation() throws {
        let undefined: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
        for byte in UInt8.min...UInt8.max {
            let latin1 = try #require(String(data: Data([byte]), encoding: .isoLatin1))
            #expect(Self.convert([byte], from: .latin1, chunkSize: 1) == Array(latin1.utf8), "byte \(byte)")
            let converted = Self.convert([byte], from: .windows1252, chunkSize: 1)
            if undefined.contains(byte) {
                #expect(converted == Array(String(UnicodeScalar(byte)).utf8), "byte \(byte)")
            } else {
                let expected = try #require(String(data: Data([byte]), encoding: .windowsCP1252))
                #expect(converted == Array(expected.utf8), "byte \(byte)")
            }
        }
        // The names a spreadsheet user meets: Müller, Đặng is not in 1252, but € and ’ are.
        #expect(Self.convert([0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72, 0x80, 0x92], from: .windows1252, chunkSize: 3) == Array("Müller€’".utf8))
    }

    /// UTF-16 in either byte order, split anywhere (inside a code unit, between the two
    /// halves of a surrogate pair), converts as Foundation converts it.
    @Test(arguments: [1, 2, 3, 5, 7, 1 << 20])
    func utf16ConvertsAtEverySplit(chunkSize: Int) throws {
        let text = "id\temail\r\nАнна Петрова\tanna@пример.рф\r\n😀 Đặng Thị Hương\t李@例え.jp\r\n"
        for (encoding, foundation) in [(InputEncoding.utf16LittleEndian, String.Encoding.utf16LittleEndian), (.utf16BigEndian, .utf16BigEndian)] {
            let bytes = [UInt8](try #require(text.data(using: foundation)))
            #expect(Self.convert(bytes, from: encoding, chunkSize: chunkSize) == Array(text.utf8))
        }
    }

    /// A lone surrogate, a high surrogate before something else, and an odd byte at the
    /// end each become 0xFF, which is never UTF-8, so the value holding it is refused
    /// rather than tokenized as other text.
    @Test(arguments: [1, 2, 3, 1 << 20])
    func brokenUTF16BecomesABytethatIsNeverUTF8(chunkSize: Int) {
        // "a", lone low surrogate, "b", high surrogate then "c", then half a unit.
        let littleEndian: [UInt8] = [0x61, 0x00, 0x00, 0xDC, 0x62, 0x00, 0x3D, 0xD8, 0x63, 0x00, 0x64]
        #expect(Self.convert(littleEndian, from: .utf16LittleEndian, chunkSize: chunkSize) == [0x61, 0xFF, 0x62, 0xFF, 0x63, 0xFF])
        // A high surrogate at the very end.
        #expect(Self.convert([0x00, 0x61, 0xD8, 0x3D], from: .utf16BigEndian, chunkSize: chunkSize) == [0x61, 0xFF])
        #expect(StrictUTF8.decode([0x61, 0xFF]) == nil)
    }

    /// A byte-order mark decides the encoding and is left out of what is read, even
    /// when it arrives a byte at a time; an input of nothing but a mark is empty.
    @Test(arguments: [1, 2, 3, 1 << 20])
    func aByteOrderMarkDecidesTheEncoding(chunkSize: Int) throws {
        let text = "id,email\n1,zoë@例え.jp\n"
        let inputs: [(InputEncoding, [UInt8])] = [
            (.utf8, [0xEF, 0xBB, 0xBF] + Array(text.utf8)),
            (.utf16LittleEndian, [0xFF, 0xFE] + [UInt8](try #require(text.data(using: .utf16LittleEndian)))),
            (.utf16BigEndian, [0xFE, 0xFF] + [UInt8](try #require(text.data(using: .utf16BigEndian)))),
        ]
        for (encoding, bytes) in inputs {
            let (output, input) = try Self.decode(bytes, declared: nil, chunkSize: chunkSize)
            #expect(output == Array(text.utf8))
            #expect(input.encoding == encoding)
            #expect(input.hadByteOrderMark)
            #expect(input.bytesReadFromFile == bytes.count)
            // The same mark with --encoding saying the same is fine.
            #expect(try Self.decode(bytes, declared: encoding, chunkSize: chunkSize).bytes == Array(text.utf8))
        }
        let plain = try Self.decode(Array(text.utf8), declared: nil, chunkSize: chunkSize)
        #expect(plain.bytes == Array(text.utf8))
        #expect(!plain.input.hadByteOrderMark)
        #expect(try Self.decode([0xFF, 0xFE], declared: nil, chunkSize: chunkSize).bytes.isEmpty)
        #expect(try Self.decode([], declared: nil, chunkSize: chunkSize).bytes.isEmpty)
        // Two bytes that are not a mark stay as they are.
        #expect(try Self.decode([0x61, 0x0A], declared: nil, chunkSize: chunkSize).bytes == [0x61, 0x0A])
    }

    /// A mark that contradicts --encoding is refused, naming both.
    @Test func aMarkThatContradictsTheEncodingGivenIsRefused() throws {
        let bytes: [UInt8] = [0xFF, 0xFE, 0x61, 0x00]
        #expect(throws: InputEncodingProblem.self) { try Self.decode(bytes, declared: .windows1252, chunkSize: 4) }
        do {
            _ = try Self.decode(bytes, declared: .windows1252, chunkSize: 4)
        } catch let problem as InputEncodingProblem {
            #expect(problem.message == "'in.csv' starts with a utf-16le byte-order mark, but --encoding says windows-1252")
        }
    }

    /// Found from outside: UTF-16 without a mark was read as UTF-8 and its header shown
    /// with raw NUL bytes. NUL bytes at the start name the likely byte order instead.
    @Test func unmarkedUTF16IsRecognisedByItsNulBytes() throws {
        let text = "id,email\n"
        let little = [UInt8](try #require(text.data(using: .utf16LittleEndian)))
        let big = [UInt8](try #require(text.data(using: .utf16BigEndian)))
        #expect(DecodedInput.unmarkedUTF16(little) == .utf16LittleEndian)
        #expect(DecodedInput.unmarkedUTF16(big) == .utf16BigEndian)
        #expect(DecodedInput.unmarkedUTF16(Array(text.utf8)) == nil)
        // Found from outside: one stray NUL in UTF-8 text refused the whole file.
        #expect(DecodedInput.unmarkedUTF16(Array("id,name,city\n1,Anna,Oslo\n2,Bob,Ro\u{0}me\n".utf8)) == nil)
        // Mostly non-Latin UTF-16 still has NULs in its ASCII characters.
        let cyrillic = [UInt8](try #require("id\tимя\n1\tАнна Петрова\n2\tБорис\n".data(using: .utf16LittleEndian)))
        #expect(DecodedInput.unmarkedUTF16(cyrillic) == .utf16LittleEndian)
        do {
            _ = try Self.decode(little, declared: nil, chunkSize: 1 << 20)
            Issue.record("unmarked UTF-16 was read as UTF-8")
        } catch let problem as InputEncodingProblem {
            #expect(problem.hint == "give --encoding utf-16le (or save it as UTF-8)")
        }
        // Declared, it is read.
        #expect(try Self.decode(little, declared: .utf16LittleEndian, chunkSize: 3).bytes == Array(text.utf8))
    }

    /// `--encoding` takes the names in its help and the usual aliases, in any case.
    @Test func theOptionTakesNamesAndAliases() {
        #expect(InputEncoding(optionValue: "Windows-1252") == .windows1252)
        #expect(InputEncoding(optionValue: "cp1252") == .windows1252)
        #expect(InputEncoding(optionValue: "LATIN1") == .latin1)
        #expect(InputEncoding(optionValue: "iso-8859-1") == .latin1)
        #expect(InputEncoding(optionValue: "UTF8") == .utf8)
        #expect(InputEncoding(optionValue: "utf-16le") == .utf16LittleEndian)
        #expect(InputEncoding(optionValue: "utf-16") == nil)
        #expect(InputEncoding(optionValue: "ebcdic") == nil)
        #expect(InputEncoding.optionValues == "utf-8, utf-16le, utf-16be, windows-1252, iso-8859-1")
    }
}

/// Lines for `tokenize -` and `--values-from` in every line-break style.
struct LineBreakStyleTests {
    static func lines(_ text: String, chunkSize: Int) throws -> [LineReader.Line] {
        var rest = Array(text.utf8)[...]
        var reader = LineReader {
            guard !rest.isEmpty else { return nil }
            defer { rest = rest.dropFirst(chunkSize) }
            return Array(rest.prefix(chunkSize))
        }
        var lines: [LineReader.Line] = []
        while true {
            if let line = reader.nextBufferedLine() {
                lines.append(line)
                continue
            }
            if reader.isAtEnd { break }
            try reader.fill()
        }
        return lines
    }

    @Test(arguments: [1, 2, 3, 1 << 20])
    func carriageReturnsEndLinesWhenTheFirstBreakIsALoneOne(chunkSize: Int) throws {
        #expect(
            try Self.lines("a@b.io\r\rc@d.io\r\ne@f.io", chunkSize: chunkSize) == [
                .text(number: 1, "a@b.io"), .text(number: 2, ""), .text(number: 3, "c@d.io"), .text(number: 4, "e@f.io"),
            ])
        // A CRLF first keeps LF as the break; a lone CR later is part of a value.
        #expect(
            try Self.lines("a\r\nb\rc\n", chunkSize: chunkSize) == [.text(number: 1, "a"), .text(number: 2, "b\rc")])
    }
}
