import Foundation
import Testing
import ZeroPiiTestHelpers

/// Files as spreadsheets and older tools save them, through the `zeropii` binary: UTF-16
/// with and without a byte-order mark, windows-1252 and ISO-8859-1, CR line endings, no
/// header row, and the rows a run leaves out kept in `--rejects FILE`. The reference for
/// every file is the same table saved as UTF-8 with LF line endings: its tokens are what
/// every other form must give, since one vault gives one value one token.
@Suite(.skippedUnderThreadSanitizer)
struct SpreadsheetFilesCommandLineTests {
    /// A table with Latin, Cyrillic and Han names and a symbol windows-1252 has (€).
    static let table = [
        ["id", "email", "name"],
        ["1", "müller@example.de", "Jürgen Müller"],
        ["2", "anna@example.ru", "Renée €"],
        ["3", "li@example.cn", "plain"],
    ]

    static func text(delimiter: String = ",", lineBreak: String = "\n") -> String {
        table.map { $0.joined(separator: delimiter) + lineBreak }.joined()
    }

    static func tokenize(_ arguments: [String], directory: String, input: Data? = nil) throws -> CommandLineTool.Finished {
        try CommandLineTool.run(["tokenize", "--data-dir", directory + "/data"] + arguments, input: input)
    }

    static func write(_ bytes: Data, _ name: String, in directory: String) throws -> String {
        let path = directory + "/" + name
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    static func encoded(_ text: String, _ encoding: String.Encoding) throws -> Data {
        try #require(text.data(using: encoding))
    }

    /// UTF-16 in both byte orders, as Excel's "Unicode Text" (tabs, CRLF, a byte-order
    /// mark): the output is UTF-8 with a UTF-8 mark and, byte for byte, what the same
    /// table saved as UTF-8 with a mark gives.
    @Test func utf16WithAByteOrderMarkGivesTheUTF8Result() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = Self.text(delimiter: "\t", lineBreak: "\r\n")
        let reference = try Self.write(Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8), "utf8.txt", in: directory)
        let expected = try Self.tokenize(["--quiet", "--csv", reference, "--columns", "email,name"], directory: directory)
        #expect(expected.status == 0, "\(expected.errorOutput)")
        #expect(expected.outputBytes.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(!expected.output.contains("müller@example.de"))
        let marked: [(String, [UInt8], String.Encoding)] = [
            ("le.txt", [0xFF, 0xFE], .utf16LittleEndian), ("be.txt", [0xFE, 0xFF], .utf16BigEndian),
        ]
        for (name, mark, encoding) in marked {
            let path = try Self.write(Data(mark) + Self.encoded(text, encoding), name, in: directory)
            let run = try Self.tokenize(["--quiet", "--csv", path, "--columns", "email,name"], directory: directory)
            #expect(run.status == 0, "\(run.errorOutput)")
            #expect(run.outputBytes == expected.outputBytes, "\(name)")
        }
    }

    /// Found from outside: UTF-16 without a mark was read as UTF-8 and its header shown
    /// with raw NUL bytes. Now: a usage error naming the likely encoding, no NUL on the
    /// terminal, no output file; with --encoding it is read.
    @Test func utf16WithoutAMarkIsNamedAndReadWhenDeclared() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = Self.text(delimiter: "\t")
        let path = try Self.write(Self.encoded(text, .utf16LittleEndian), "nomark.txt", in: directory)
        let output = directory + "/out.csv"
        let refused = try Self.tokenize(["--quiet", "--csv", path, "--columns", "email", "--output", output], directory: directory)
        #expect(refused.status == 2)
        #expect(!refused.errorOutput.contains("\u{0}"))
        #expect(
            refused.errorOutput
                == "zeropii: '\(path)' holds NUL bytes at its start: it looks like utf-16le text saved without a byte-order mark\n"
                + "give --encoding utf-16le (or save it as UTF-8)\n")
        #expect(!FileManager.default.fileExists(atPath: output))

        let reference = try Self.write(Data(text.utf8), "utf8.txt", in: directory)
        let expected = try Self.tokenize(["--quiet", "--csv", reference, "--columns", "email"], directory: directory)
        let declared = try Self.tokenize(["--quiet", "--csv", path, "--columns", "email", "--encoding", "utf-16le"], directory: directory)
        #expect(declared.status == 0)
        #expect(declared.outputBytes == expected.outputBytes)
    }

    /// Found from outside: a windows-1252 file kept 1 of 3 rows. With --encoding it
    /// gives what its UTF-8 twin gives; without, its rows are refused (never tokenized
    /// as other text) with a hint naming --encoding. ISO-8859-1 likewise.
    @Test func singleByteEncodingsAreConvertedWhenNamed() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = Self.text(lineBreak: "\r\n")
        let reference = try Self.write(Data(text.utf8), "utf8.csv", in: directory)
        let expected = try Self.tokenize(["--quiet", "--csv", reference, "--columns", "email,name"], directory: directory)
        let windows = try Self.write(Self.encoded(text, .windowsCP1252), "win.csv", in: directory)
        #expect(try Data(contentsOf: URL(fileURLWithPath: windows)).contains(0x80), "€ is 0x80 in windows-1252")
        let converted = try Self.tokenize(
            ["--quiet", "--csv", windows, "--columns", "email,name", "--encoding", "windows-1252"], directory: directory)
        #expect(converted.status == 0, "\(converted.errorOutput)")
        #expect(converted.outputBytes == expected.outputBytes)

        let unconverted = try Self.tokenize(["--quiet", "--csv", windows, "--columns", "email,name"], directory: directory)
        #expect(unconverted.status == 1)
        let third = expected.output.components(separatedBy: "\r\n").first { $0.hasPrefix("3,") } ?? "?"
        #expect(unconverted.output == "id,email,name\r\n\(third)\r\n")
        #expect(unconverted.errorOutput.contains("zeropii: line 2 has text that is not UTF-8"))
        #expect(unconverted.errorOutput.contains("give --encoding windows-1252"))

        let latinText = text.replacingOccurrences(of: "€", with: "¤")
        let latinReference = try Self.write(Data(latinText.utf8), "latin-utf8.csv", in: directory)
        let latin = try Self.write(Self.encoded(latinText, .isoLatin1), "latin.csv", in: directory)
        let latinExpected = try Self.tokenize(["--quiet", "--csv", latinReference, "--columns", "name"], directory: directory)
        let latinRun = try Self.tokenize(["--quiet", "--csv", latin, "--columns", "name", "--encoding", "latin1"], directory: directory)
        #expect(latinRun.status == 0)
        #expect(latinRun.outputBytes == latinExpected.outputBytes)
    }

    /// Found from outside: Excel for Mac's CR line endings made the whole file one
    /// "header". Its rows are read and written back with CR; their tokens are those of
    /// the LF file. `tokenize -` reads CR lines too.
    @Test func carriageReturnLineEndingsAreRows() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reference = try Self.write(Data(Self.text().utf8), "lf.csv", in: directory)
        let expected = try Self.tokenize(["--quiet", "--csv", reference, "--columns", "email"], directory: directory)
        let mac = try Self.write(Data(Self.text(lineBreak: "\r").utf8), "mac.csv", in: directory)
        let run = try Self.tokenize(["--quiet", "--csv", mac, "--columns", "email"], directory: directory)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(run.output == expected.output.replacingOccurrences(of: "\n", with: "\r"))

        let emails = Self.table.dropFirst().map { $0[1] }
        let lines = try Self.tokenize(["--quiet", "-"], directory: directory, input: Data(emails.joined(separator: "\r").utf8))
        let arguments = try Self.tokenize(["--quiet"] + emails, directory: directory)
        #expect(lines.status == 0)
        #expect(lines.output == arguments.output)
        #expect(lines.output.split(separator: "\n").count == 3)
    }

    /// `--no-header --columns 2`: the first line is data and is tokenized, with the
    /// tokens the header file gets; names are refused; a position past the first row
    /// is a usage error.
    @Test func withoutAHeaderColumnsGoByPosition() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reference = try Self.write(Data(Self.text().utf8), "h.csv", in: directory)
        let expected = try Self.tokenize(["--quiet", "--csv", reference, "--columns", "email"], directory: directory)
        let headless = try Self.write(Data(Self.text().split(separator: "\n").dropFirst().map { $0 + "\n" }.joined().utf8), "n.csv", in: directory)
        let run = try Self.tokenize(["--quiet", "--csv", headless, "--no-header", "--columns", "2"], directory: directory)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect("id,email,name\n" + run.output == expected.output)

        let named = try Self.tokenize(["--quiet", "--csv", headless, "--no-header", "--columns", "email"], directory: directory)
        #expect(named.status == 2)
        #expect(named.errorOutput.hasPrefix("zeropii: with --no-header, --columns takes column numbers counted from 1"))
        let beyond = try Self.tokenize(["--quiet", "--csv", headless, "--no-header", "--columns", "4"], directory: directory)
        #expect(beyond.status == 2)
        #expect(beyond.errorOutput.hasPrefix("zeropii: --columns 4: the rows have 3 fields\n"))
        #expect(beyond.output.isEmpty)
    }

    /// `--rejects FILE` holds every row left out, byte for byte behind its line number and
    /// reason, after the header; the summary says where they went, and the output holds
    /// the rest. A run without rejected rows still replaces an old rejects file.
    @Test func rejectedRowsAreKeptVerbatim() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let long = String(repeating: "x", count: 4097) + "@example.com"
        // Line 7's value holds the byte 0xFF, which is never UTF-8; line 8 has no line break.
        var bytes = Data("id,email\r\n1,a@b.io\r\n2,Smith, John\r\n3,\"q\"x\r\n4,\(long)\r\n5,c@d.io\r\n6,".utf8)
        bytes += Data([0xFF]) + Data("bad\r\n7,e@f.io".utf8)
        let path = try Self.write(bytes, "in.csv", in: directory)
        let rejects = directory + "/rejects.csv"
        let run = try Self.tokenize(["--csv", path, "--columns", "email", "--rejects", rejects], directory: directory)
        #expect(run.status == 1)
        #expect(run.output.split(separator: "\r\n").map { $0.split(separator: ",").first ?? "" } == ["id", "1", "5", "7"])
        #expect(run.errorOutput.contains(" 4 rows failed (copied to '\(rejects)'), "), "\(run.errorOutput)")
        let kept = try Data(contentsOf: URL(fileURLWithPath: rejects))
        var expected = Data("zeropii_line,zeropii_reason,id,email\r\n".utf8)
        expected += Data("3,\"has 3 fields, more than the header's 2 (an unquoted delimiter in a value?)\",2,Smith, John\r\n".utf8)
        expected += Data("4,\"text follows a closing quote\",3,\"q\"x\r\n".utf8)
        expected += Data("5,\"has a value over 4096 bytes\",4,\(long)\r\n".utf8)
        expected += Data(
            "7,\"has text that is not UTF-8 (is the file in another encoding? give --encoding windows-1252 for Excel's CSV from Windows)\",6,".utf8
        )
        expected += Data([0xFF]) + Data("bad\r\n".utf8)
        #expect(kept == expected)

        // The next run has nothing to reject: the file holds only the header.
        let clean = try Self.write(Data("id,email\n1,a@b.io\n".utf8), "clean.csv", in: directory)
        let second = try Self.tokenize(["--quiet", "--csv", clean, "--columns", "email", "--rejects", rejects], directory: directory)
        #expect(second.status == 0)
        #expect(try String(contentsOfFile: rejects, encoding: .utf8) == "zeropii_line,zeropii_reason,id,email\n")
    }

    /// A row over the 16 MiB limit streams into the rejects file whole; the rows around
    /// it are tokenized.
    @Test func aRowOverTheSizeLimitIsCopiedWhole() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let huge = String(repeating: "y", count: 17 << 20)
        let path = try Self.write(Data("id,note\n1,a\n2,\(huge)\n3,b\n".utf8), "big.csv", in: directory)
        let rejects = directory + "/r.csv"
        let run = try Self.tokenize(["--quiet", "--csv", path, "--columns", "note", "--rejects", rejects], directory: directory)
        #expect(run.status == 1)
        #expect(run.errorOutput.contains("zeropii: line 3 is malformed (the row is longer than 16777216 bytes); the row was left out"))
        #expect(run.output.split(separator: "\n").count == 3)
        let kept = try Data(contentsOf: URL(fileURLWithPath: rejects))
        #expect(kept == Data("zeropii_line,zeropii_reason,id,note\n3,\"the row is longer than 16777216 bytes\",2,\(huge)\n".utf8))
    }

    /// A run that stops early leaves the rows rejected so far in `FILE.partial` and the
    /// old rejects file as it was.
    @Test func aStoppedRunKeepsItsRejectsAsPartial() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let rejects = directory + "/r.csv"
        try Data("OLD\n".utf8).write(to: URL(fileURLWithPath: rejects))
        let path = try Self.write(Data("id,email\n1,a@b.io\n2,\"x\"y\n3,c@d.io\n".utf8), "in.csv", in: directory)
        let run = try Self.tokenize(["--quiet", "--strict", "--csv", path, "--columns", "email", "--rejects", rejects], directory: directory)
        #expect(run.status == 1)
        #expect(try String(contentsOfFile: rejects, encoding: .utf8) == "OLD\n")
        #expect(
            try String(contentsOfFile: rejects + ".partial", encoding: .utf8)
                == "zeropii_line,zeropii_reason,id,email\n3,\"text follows a closing quote\",2,\"x\"y\n")
        #expect(
            run.errorOutput.hasSuffix(
                "zeropii: --strict stopped the run at line 3; nothing after it was read; the 1 row left out so far is in '\(rejects).partial'\n"))
    }

    /// The new options' usage errors: exit 2, nothing written.
    @Test func misusedOptionsAreUsageErrors() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.write(Data([0xFF, 0xFE, 0x61, 0x00, 0x0A, 0x00]), "le.csv", in: directory)
        let cases: [([String], String)] = [
            (
                ["--csv", path, "--columns", "a", "--encoding", "cp1252"],
                "zeropii: '\(path)' starts with a utf-16le byte-order mark, but --encoding says windows-1252\n"
            ),
            (
                ["--csv", path, "--columns", "a", "--encoding", "ebcdic"],
                "zeropii: --encoding takes utf-8, utf-16le, utf-16be, windows-1252, iso-8859-1\n"
            ),
            (["a@b.io", "--rejects", directory + "/r.csv"], "zeropii: --rejects goes with --csv"),
            (["a@b.io", "--no-header"], "zeropii: --no-header goes with --csv\n"),
            (["--csv", path, "--columns", "a", "--rejects", path], "zeropii: --rejects '\(path)' is the input file"),
            (["--csv", path, "--columns", "a", "--rejects", "-"], "zeropii: --rejects needs a file, not standard output\n"),
        ]
        for (arguments, message) in cases {
            let run = try Self.tokenize(["--quiet"] + arguments, directory: directory)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.errorOutput.hasPrefix(message), "\(run.errorOutput)")
            #expect(run.output.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/r.csv"))
    }

    /// Found from outside: with --no-header, an odd first row (an unquoted "Smith, Bob")
    /// set the field count, so its email stood outside the columns tokenized and went out
    /// in clear while every good row was refused. The most common count decides.
    @Test func anOddFirstRowDoesNotSetTheFieldCount() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.write(
            Data("1,Smith, Bob,bob@example.com\n2,Anna,anna@example.com\n3,Cara,cara@example.com\n".utf8), "nh.csv", in: directory)
        let rejects = directory + "/r.csv"
        let run = try Self.tokenize(["--quiet", "--csv", path, "--no-header", "--columns", "2,3", "--rejects", rejects], directory: directory)
        #expect(run.status == 1)
        #expect(!run.output.contains("@example.com"), "\(run.output)")
        #expect(run.output.split(separator: "\n").map { $0.prefix(2) } == ["2,", "3,"])
        #expect(run.errorOutput.contains("zeropii: line 1 has 4 fields, more than most rows' 3"))
        #expect(try String(contentsOfFile: rejects, encoding: .utf8).hasPrefix("1,\"has 4 fields, more than most rows' 3"))
    }

    /// Found from outside: broken UTF-16 (an odd last byte, a lone surrogate) in a column
    /// not tokenized went out as a 0xFF byte with exit 0. Such a row is refused.
    @Test func brokenUTF16RefusesItsRowWhereverItIs() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var bytes = Data([0xFF, 0xFE]) + (try Self.encoded("id\tname\tcity\r\n1\tAnna\tOslo\r\n2\tBob\tRo", .utf16LittleEndian))
        bytes += Data([0x00, 0xDC])  // a lone low surrogate in the city, not tokenized
        bytes += try Self.encoded("me\r\n3\tCara\tBergen", .utf16LittleEndian) + Data([0x58])  // an odd last byte
        let path = try Self.write(bytes, "broken.txt", in: directory)
        let run = try Self.tokenize(["--quiet", "--csv", path, "--columns", "name"], directory: directory)
        #expect(run.status == 1)
        #expect(!run.outputBytes.contains(0xFF))
        #expect(run.output.split(separator: "\r\n").count == 2, "\(run.output.debugDescription)")
        #expect(run.errorOutput.contains("zeropii: line 3 has text that is not valid utf-16le (a broken or cut-off character)"))
        #expect(run.errorOutput.contains("zeropii: line 4 has text that is not valid utf-16le"))
    }
}
