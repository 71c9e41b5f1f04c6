import Foundation
import Testing
import ZeroPiiTestHelpers

@testable import ZeroPiiCLI

struct CSVReaderTests {
    /// Reads `text` fed in chunks of `chunkSize` bytes, so every boundary case between
    /// reads is exercised.
    static func read(
        _ text: String, chunkSize: Int = 3, delimiter: UInt8? = UInt8(ascii: ","), maximumRecordBytes: Int = 16 << 20
    ) -> [CSVReader.Item] {
        read(Array(text.utf8), chunkSize: chunkSize, delimiter: delimiter, maximumRecordBytes: maximumRecordBytes).items
    }

    static func read(
        _ input: [UInt8], chunkSize: Int = 3, delimiter: UInt8?, maximumRecordBytes: Int = 16 << 20
    ) -> (
        items: [CSVReader.Item], reader: CSVReader
    ) {
        var bytes = input[...]
        var reader = CSVReader(delimiter: delimiter, maximumRecordBytes: maximumRecordBytes) {
            guard !bytes.isEmpty else { return nil }
            let chunk = Array(bytes.prefix(chunkSize))
            bytes = bytes.dropFirst(chunkSize)
            return chunk
        }
        var items: [CSVReader.Item] = []
        // The source never throws.
        while let item = try? reader.next() { items.append(item) }
        return (items, reader)
    }

    static func malformed(_ items: [CSVReader.Item]) -> [CSVReader.Malformed] {
        items.compactMap { if case .malformed(let problem) = $0 { return problem } else { return nil } }
    }

    static func records(_ items: [CSVReader.Item]) -> [CSVReader.Record] {
        items.compactMap { if case .record(let record) = $0 { return record } else { return nil } }
    }

    @Test(arguments: [1, 2, 3, 7, 1 << 20])
    func quotedFieldsCommasQuotesAndNewlines(chunkSize: Int) {
        let text = "a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\r\nlines\"\r\nplain,,end\nlast,row,here"
        let items = Self.read(text, chunkSize: chunkSize)
        let records = Self.records(items)
        #expect(records.count == 4)
        #expect(
            records.map { $0.fields.map(\.value) } == [
                ["a", "b", "c"], ["x, y", "say \"hi\"", "two\r\nlines"], ["plain", "", "end"], ["last", "row", "here"],
            ])
        #expect(records.map(\.line) == [1, 2, 4, 5])
        #expect(records[1].fields.map(\.isQuoted) == [true, true, true])
        // The bytes of every record put back together are the input, byte for byte.
        #expect(records.flatMap(\.bytes) == Array(text.utf8))
    }

    @Test(arguments: [
        ("a,b\n1,\"open\n", 2, "a quoted field opened on line 2 is never closed, so it took in the rest of the input"),
        ("a,b\n1,\"x\"y\n2,3\n", 2, "text follows a closing quote"),
        ("a,b\n1,x\"y\n2,3\n", 2, "a quote inside an unquoted field"),
    ])
    func malformedRowsAreReportedWithTheirLine(text: String, line: Int, reason: String) {
        let items = Self.read(text)
        let malformed = Self.malformed(items)
        #expect(malformed.count == 1)
        #expect(malformed.first?.lines.lowerBound == line)
        #expect(malformed.first?.reason == reason)
        // Reading goes on after a malformed line.
        if !reason.contains("never closed") {
            #expect(Self.records(items).last?.fields.map(\.value) == ["2", "3"])
            #expect(Self.records(items).last?.line == 3)
        }
    }

    @Test func edgeCases() {
        #expect(Self.read("").isEmpty)
        #expect(Self.records(Self.read("\n")).first?.fields.map(\.value) == [""])
        #expect(Self.records(Self.read("a,b,")).first?.fields.map(\.value) == ["a", "b", ""])
        #expect(Self.records(Self.read("\"\"")).first?.fields.map(\.value) == [""])
        // An LF (or CRLF) first makes a lone CR later part of a field.
        #expect(Self.records(Self.read("h,i\na\rb,c\n")).last?.fields.map(\.value) == ["a\rb", "c"])
        #expect(Self.records(Self.read("Zürich,日本\n")).first?.fields.map(\.value) == ["Zürich", "日本"])
    }

    @Test func rewritingReplacesOnlyTheChosenFieldsAndKeepsQuoting() throws {
        let record = try #require(Self.records(Self.read("1,\"a@b.c\",x@y.z,\"keep, me\"\r\n")).first)
        let rewritten = CSVTokenizer.rewrite(record, replacing: [1: "q@r.s", 2: "t\"u"])
        #expect(String(decoding: rewritten, as: UTF8.self) == "1,\"q@r.s\",t\"u,\"keep, me\"\r\n")
        let quotedToken = CSVTokenizer.rewrite(record, replacing: [1: "say \"x\""])
        #expect(String(decoding: quotedToken, as: UTF8.self) == "1,\"say \"\"x\"\"\",x@y.z,\"keep, me\"\r\n")
        #expect(CSVTokenizer.rewrite(record, replacing: [:]) == record.bytes)
    }

    @Test func valueIndexesSkipEmptyFieldsAndRejectShortRowsAndLongValues() throws {
        let records = Self.records(Self.read("1,,x\n2\n3,\(String(repeating: "a", count: 4097)),y\n"))
        #expect(CSVTokenizer.valueIndexes(records[0], columns: [1, 2], fieldCount: 3) == .success([2]))
        #expect(CSVTokenizer.valueIndexes(records[1], columns: [1, 2], fieldCount: 3) == .failure(.tooFewFields(1, header: 3)))
        #expect(CSVTokenizer.valueIndexes(records[2], columns: [1], fieldCount: 3) == .failure(.valueTooLong))
    }

    /// Found from outside: `1,Smith, John,john@x.io` under `id,name,email` has a field
    /// too many, so the email stood in a fourth column, was not tokenized and went out
    /// in clear. A row with more (or fewer) fields than the header is refused, even
    /// when the columns to tokenize are there.
    @Test func aRowWithMoreOrFewerFieldsThanTheHeaderIsRefused() throws {
        let records = Self.records(Self.read("1,Smith, John,john@x.io\n1,john@x.io\n"))
        #expect(CSVTokenizer.valueIndexes(records[0], columns: [2], fieldCount: 3) == .failure(.tooManyFields(4, header: 3)))
        #expect(CSVTokenizer.valueIndexes(records[1], columns: [1], fieldCount: 3) == .failure(.tooFewFields(2, header: 3)))
        #expect(
            CSVTokenizer.RowProblem.tooManyFields(4, header: 3).reason()
                == "has 4 fields, more than the header's 3 (an unquoted delimiter in a value?)"
        )
        #expect(CSVTokenizer.RowProblem.tooFewFields(1, header: 3).reason() == "has 1 field, fewer than the header's 3")
        #expect(
            CSVTokenizer.RowProblem.tooFewFields(2, header: 3).reason(reference: "the first row's") == "has 2 fields, fewer than the first row's 3")
        #expect(
            CSVTokenizer.RowProblem.notUTF8.reason(encoding: .utf16LittleEndian)
                == "has text that is not valid utf-16le (a broken or cut-off character)")
        #expect(CSVTokenizer.RowProblem.notUTF8.reason().contains("--encoding windows-1252"))
    }
}

/// The CSV dialects spreadsheets write: a byte-order mark, `;` tab and `|`, blank
/// lines, and the reports for quotes never closed and records too long to hold.
struct CSVDialectTests {
    /// Excel for Mac's "Macintosh CSV" ends lines with a lone CR; found from outside:
    /// the whole file read as one header line. The first line break decides: a lone CR
    /// makes CR the line break (a CRLF among them is one break too), a CRLF or an LF
    /// keeps LF, and a lone CR inside a field is then data.
    @Test(arguments: [1, 2, 3, 5, 1 << 20])
    func linesEndingWithALoneCarriageReturnAreRecords(chunkSize: Int) {
        let text = "id;email\r1;\"a\rb@c.io\"\r\r2;d@e.io\r\n3;f@g.io"
        let (items, reader) = CSVReaderTests.read(Array(text.utf8), chunkSize: chunkSize, delimiter: nil)
        #expect(reader.lineBreak == UInt8(ascii: "\r"))
        #expect(reader.delimiter == UInt8(ascii: ";"))
        let records = CSVReaderTests.records(items)
        #expect(records.map { $0.fields.map(\.value) } == [["id", "email"], ["1", "a\rb@c.io"], [""], ["2", "d@e.io"], ["3", "f@g.io"]])
        // The quoted CR is a line of its own: record 3 starts on line 4.
        #expect(records.map(\.line) == [1, 2, 4, 5, 6])
        #expect(records[2].isBlank)
        #expect(records.flatMap(\.bytes) == Array(text.utf8))

        let unix = CSVReaderTests.read(Array("a,b\r\n1,x\ry\n".utf8), chunkSize: chunkSize, delimiter: nil)
        #expect(unix.reader.lineBreak == UInt8(ascii: "\n"))
        #expect(CSVReaderTests.records(unix.items).map { $0.fields.map(\.value) } == [["a", "b"], ["1", "x\ry"]])
    }

    /// A malformed record in a file of CR line breaks covers the right lines, and its
    /// bytes (a CRLF's LF included) reach the sink that `--rejects` uses.
    @Test(arguments: [1, 4, 1 << 20])
    func malformedRecordsWithCarriageReturnsAreSkippedWholeAndHandedOn(chunkSize: Int) throws {
        let text = "a,b\r1,x\"y\r\n2,\"z\"w\r3,ok\r"
        var bytes = Array(text.utf8)[...]
        let sink = CollectingSink()
        var reader = CSVReader(delimiter: nil) {
            guard !bytes.isEmpty else { return nil }
            defer { bytes = bytes.dropFirst(chunkSize) }
            return Array(bytes.prefix(chunkSize))
        }
        reader.skippedRecords = sink
        var items: [CSVReader.Item] = []
        while let item = try reader.next() { items.append(item) }
        #expect(
            CSVReaderTests.malformed(items) == [
                CSVReader.Malformed(lines: 2...2, reason: "a quote inside an unquoted field"),
                CSVReader.Malformed(lines: 3...3, reason: "text follows a closing quote"),
            ])
        #expect(CSVReaderTests.records(items).map { $0.fields.map(\.value) } == [["a", "b"], ["3", "ok"]])
        #expect(CSVReaderTests.records(items).last?.line == 4)
        #expect(sink.records.map(\.line) == [2, 3])
        // A CRLF split between two reads leaves its LF to the next record: the bytes, in
        // order, are the same.
        #expect(sink.records.flatMap(\.bytes) == Array("1,x\"y\r\n2,\"z\"w\r".utf8))
        if chunkSize > 1 { #expect(sink.records.map { String(decoding: $0.bytes, as: UTF8.self) } == ["1,x\"y\r\n", "2,\"z\"w\r"]) }
    }

    /// A record too long to hold streams through the sink whole, in order.
    @Test func anOversizedRecordStreamsToTheSink() throws {
        let long = String(repeating: "x", count: 100)
        let text = "a,b\n1,\(long)\n2,ok\n"
        var bytes = Array(text.utf8)[...]
        let sink = CollectingSink()
        var reader = CSVReader(delimiter: nil, maximumRecordBytes: 32) {
            guard !bytes.isEmpty else { return nil }
            defer { bytes = bytes.dropFirst(7) }
            return Array(bytes.prefix(7))
        }
        reader.skippedRecords = sink
        var items: [CSVReader.Item] = []
        while let item = try reader.next() { items.append(item) }
        #expect(CSVReaderTests.malformed(items) == [CSVReader.Malformed(lines: 2...2, reason: "the row is longer than 32 bytes")])
        #expect(sink.records.count == 1)
        #expect(sink.records.first?.reason == "the row is longer than 32 bytes")
        #expect(sink.records.first.map { String(decoding: $0.bytes, as: UTF8.self) } == "1,\(long)\n")
        #expect(CSVReaderTests.records(items).map(\.line) == [1, 3])
    }

    @Test(arguments: [
        ("a;b;c\n1;2;3\n", ";"), ("a\tb\n", "\t"), ("a|b|c\n", "|"), ("a,b\n", ","), ("email\nx;y\n", ","),
        // Most often wins; a tie goes to the earlier of , ; tab |.
        ("a;b;c,d\n", ";"), ("a,b;c\n", ","), ("a|b\tc\n", "\t"),
        // Quoted delimiters do not count; blank lines before the header are passed over.
        ("\"x,y,z\";b\n", ";"), ("\r\n\na;b\n", ";"),
    ])
    func theDelimiterIsDetectedFromTheHeaderLine(text: String, expected: String) {
        for chunkSize in [1, 4, 1 << 20] {
            let (_, reader) = CSVReaderTests.read(Array(text.utf8), chunkSize: chunkSize, delimiter: nil)
            #expect(reader.delimiter == UInt8(ascii: Unicode.Scalar(expected)!), "\(text.debugDescription) in chunks of \(chunkSize)")
        }
    }

    @Test func aGivenDelimiterIsUsedAsIs() {
        let (items, reader) = CSVReaderTests.read(Array("a;b,c|d\n1;2,3|4\n".utf8), delimiter: UInt8(ascii: "|"))
        #expect(reader.delimiter == UInt8(ascii: "|"))
        #expect(CSVReaderTests.records(items).map { $0.fields.map(\.value) } == [["a;b,c", "d"], ["1;2,3", "4"]])
    }

    @Test func blankLinesAreBlankRecords() {
        let records = CSVReaderTests.records(CSVReaderTests.read("a,b\n\n1,2\r\n\r\n\"\"\n"))
        #expect(records.map(\.isBlank) == [false, true, false, true, false])
        #expect(records.map(\.line) == [1, 2, 3, 4, 5])
        #expect(records[3].bytes == Array("\r\n".utf8))
    }

    @Test(arguments: [1, 3, 1 << 20])
    func anUnclosedQuoteNamesTheLineItOpenedOnAndTheLinesItTook(chunkSize: Int) {
        // The record starts on line 2; its second field is quoted over two lines; the
        // third opens a quote on line 3 that never closes.
        let text = "a,b,c\n1,\"x\ny\",\"open\nmore\nlast\n"
        let problems = CSVReaderTests.malformed(CSVReaderTests.read(text, chunkSize: chunkSize))
        #expect(
            problems == [
                CSVReader.Malformed(lines: 2...5, reason: "a quoted field opened on line 3 is never closed, so it took in the rest of the input")
            ])
        // Without a final line break the last line is still counted.
        let unterminated = CSVReaderTests.malformed(CSVReaderTests.read("a\n\"x\ny", chunkSize: chunkSize))
        #expect(unterminated.map(\.lines) == [2...3])
    }

    @Test(arguments: [1, 7, 1 << 20])
    func aRecordOverTheLimitIsSkippedAndReadingGoesOn(chunkSize: Int) {
        let long = String(repeating: "x", count: 40)
        let text = "a,b\n1,\"\(long)\n\(long)\"\n2,3\n4,\(long)\n5,6\n"
        let items = CSVReaderTests.read(text, chunkSize: chunkSize, maximumRecordBytes: 32)
        #expect(
            CSVReaderTests.malformed(items) == [
                CSVReader.Malformed(lines: 2...3, reason: "the row is longer than 32 bytes"),
                CSVReader.Malformed(lines: 5...5, reason: "the row is longer than 32 bytes"),
            ])
        let records = CSVReaderTests.records(items)
        #expect(records.map { $0.fields.map(\.value) } == [["a", "b"], ["2", "3"], ["5", "6"]])
        #expect(records.map(\.line) == [1, 4, 6])

        let unclosed = CSVReaderTests.malformed(CSVReaderTests.read("a\n1\n\"\(long)\n\(long)\n", chunkSize: chunkSize, maximumRecordBytes: 32))
        #expect(
            unclosed == [
                CSVReader.Malformed(lines: 3...4, reason: "a quoted field opened on line 3 is never closed, so it took in the rest of the input")
            ])
    }

    struct ReadFailure: Error {}

    @Test func aReadErrorIsThrown() {
        var calls = 0
        var reader = CSVReader(delimiter: nil) {
            calls += 1
            if calls == 1 { return Array("a,b\n1,".utf8) }
            throw ReadFailure()
        }
        #expect(throws: ReadFailure.self) {
            while try reader.next() != nil {}
        }
    }
}

struct CSVColumnsTests {
    /// The hint after a column not found in a header of `cells` cells: never the cells.
    static func hint(cells: Int) -> String {
        "the first line has \(cells) \(cells == 1 ? "cell" : "cells") (not listed, since it may be data): give --columns the names it has, as 'head -1 FILE' shows them, or --no-header with --columns by position (1,3)"
    }

    @Test func exactNamesWinAndCaseOnlyMatchesComeWithANote() throws {
        let names = ["id", "Email", "email", "Phone"]
        #expect(
            try CSVColumns.resolve(["email", "id"], in: names).get()
                == CSVColumns.Resolution(
                    indexes: [2, 0],
                    notes: ["the column 'Email' differs from 'email' only in case and is not tokenized; name it in --columns to tokenize it too"]))
        let folded = try CSVColumns.resolve(["phone"], in: names).get()
        #expect(folded.indexes == [3])
        #expect(folded.notes == ["the CSV has no column 'phone'; using 'Phone', which differs only in case"])
    }

    /// Found from outside: a header `id,email,email` had only its first `email`
    /// tokenized; the second went out in clear. Every column with exactly that name is
    /// used, with a note.
    @Test func everyColumnWithTheNameIsUsedWithANote() throws {
        let both = try CSVColumns.resolve(["email"], in: ["id", "email", "email"]).get()
        #expect(both.indexes == [1, 2])
        #expect(both.notes == ["2 columns (2, 3) are named 'email'; all of them are tokenized"])
        let three = try CSVColumns.resolve(["phone", "email"], in: ["email", "phone", "email", "x", "email"]).get()
        #expect(three.indexes == [1, 0, 2, 4])
        #expect(three.notes == ["3 columns (1, 3, 5) are named 'email'; all of them are tokenized"])
        // A column that differs only in case is not used, but the user hears of it,
        // unless another name chose it.
        let caseOnly = try CSVColumns.resolve(["email"], in: ["id", "email", "Email", "EMAIL@X.IO"]).get()
        #expect(caseOnly.indexes == [1])
        #expect(
            caseOnly.notes == [
                "the column 'Email' differs from 'email' only in case and is not tokenized; name it in --columns to tokenize it too"
            ])
        #expect(try CSVColumns.resolve(["email", "Email"], in: ["id", "email", "Email"]).get().notes == [])
        // Names that match only ignoring case, in several columns, are still refused.
        guard case .failure(let ambiguous) = CSVColumns.resolve(["email"], in: ["Email", "EMAIL"]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(ambiguous.message == "the CSV has no column 'email'; did you mean 'Email' or 'EMAIL'?")
    }

    /// Found from outside: a file without a header has data on its first line, and the
    /// messages listed it ("its columns are: '1', 'alice@example.com', '+1 555 0100'").
    /// A header cell that looks like data is named by its position, never shown.
    @Test func headerCellsThatLookLikeDataAreNeverShown() {
        #expect(CSVColumns.looksLikeData("alice@example.com"))
        #expect(CSVColumns.looksLikeData("+1 555 0100"))
        #expect(CSVColumns.looksLikeData("a@x.io\r2"))
        #expect(CSVColumns.looksLikeData("line one\nline two"))
        #expect(CSVColumns.looksLikeData(String(repeating: "n", count: 41)))
        #expect(!CSVColumns.looksLikeData("email") && !CSVColumns.looksLikeData("address_2") && !CSVColumns.looksLikeData("id"))
        #expect(!CSVColumns.looksLikeData(String(repeating: "n", count: 40)))

        // No header: the first line is data, and the hint says so without showing it.
        guard case .failure(let noHeader) = CSVColumns.resolve(["email"], in: ["1", "alice@example.com", "+1 555 0100"]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(noHeader.message == "the CSV has no column 'email'")
        #expect(
            noHeader.hint
                == "the first line looks like data rather than a header (2 of 3 cells); --csv needs a first line that names the columns, or --no-header with --columns by position (1,3)"
        )
        // A header with one data-like cell: that cell by position, the names as they are.
        guard case .failure(let some) = CSVColumns.resolve(["mail"], in: ["id", "email", "bob@x.io", "phone"]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(some.message == "the CSV has no column 'mail'; did you mean 'email'?")
        #expect(some.hint == Self.hint(cells: 4))
        // The suggestion never offers a data-like cell, however close.
        guard case .failure(let close) = CSVColumns.resolve(["a@x.ia"], in: ["a@x.io", "id", "name"]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(close.message == "the CSV has no column (a name that looks like data, not shown)")
        #expect(close.hint == Self.hint(cells: 3))
        // Every other message that names a header cell.
        let folded = try? CSVColumns.resolve(["A@X.IO"], in: ["a@x.io", "id"]).get()
        #expect(
            folded?.notes == [
                "the CSV has no column (a name that looks like data, not shown); using column 1 (not shown: looks like data, not a name), which differs only in case"
            ])
        guard case .failure(let twice) = CSVColumns.resolve(["5551234", "5551234"], in: ["5551234", "id"]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(twice.message == "--columns names column 1 (not shown: looks like data, not a name) twice")
        guard case .failure(let ambiguous) = CSVColumns.resolve(["A@X.IO"], in: ["a@x.io", "a@X.io"]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(
            ambiguous.message
                == "the CSV has no column (a name that looks like data, not shown); did you mean column 1 (not shown: looks like data, not a name) or column 2 (not shown: looks like data, not a name)?"
        )
        #expect(!ambiguous.hint.contains("@"))
    }

    /// Found from outside: `--columns b,b` sent and counted each value twice.
    @Test func aColumnNamedTwiceIsRefused() {
        let expected = [
            ["b", "b"]: "--columns names the column 'b' twice",
            // Two spellings of one column say which two.
            ["email", "b", "Email"]: "--columns 'email' and 'Email' both name the column 'email'",
        ]
        for (requested, message) in expected {
            guard case .failure(let twice) = CSVColumns.resolve(requested, in: ["id", "email", "b"]) else {
                Issue.record("expected a failure for \(requested)")
                continue
            }
            #expect(twice.message == message)
            #expect(twice.hint == "name each column once")
        }
    }

    /// `--no-header --columns 1,3`: positions from 1, within the first row's fields, each once.
    @Test func positionsChooseColumnsOfAFileWithoutAHeader() throws {
        #expect(try CSVColumns.resolve(positions: [3, 1], fieldCount: 3).get().indexes == [2, 0])
        guard case .failure(let beyond) = CSVColumns.resolve(positions: [4], fieldCount: 3) else {
            Issue.record("expected a failure")
            return
        }
        #expect(beyond.message == "--columns 4: the rows have 3 fields")
        guard case .failure(let twice) = CSVColumns.resolve(positions: [2, 2], fieldCount: 3) else {
            Issue.record("expected a failure")
            return
        }
        #expect(twice.message == "--columns gives column 2 twice")
    }

    /// A header cell with a control character (a NUL from UTF-16 read as UTF-8, an
    /// escape sequence) is never written to the terminal.
    @Test func headerCellsWithControlCharactersAreNotShown() {
        #expect(CSVColumns.looksLikeData("i\u{0}d"))
        #expect(CSVColumns.looksLikeData("a\u{1B}[2Jb"))
        #expect(CSVColumns.looksLikeData("x\u{2028}y"))
        #expect(!CSVColumns.looksLikeData("naïve"))
    }

    @Test func unknownNamesGetASuggestion() {
        let names = ["id", "email", "phone", "EMAIL2"]
        guard case .failure(let typo) = CSVColumns.resolve(["emial"], in: names) else {
            Issue.record("expected a failure")
            return
        }
        #expect(typo.message == "the CSV has no column 'emial'; did you mean 'email'?")
        #expect(typo.hint == CSVColumnsTests.hint(cells: 4))
        // A number is a position, which needs --no-header; no "did you mean '1'?".
        guard case .failure(let position) = CSVColumns.resolve(["3"], in: ["1", "x", "y"]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(position.message == "the CSV has no column '3'")
        #expect(position.hint == "columns are chosen by position only without a header: --no-header --columns 3")
        guard case .failure(let ambiguous) = CSVColumns.resolve(["Id"], in: ["ID", "id"]) else {
            Issue.record("expected a failure")
            return
        }
        #expect(ambiguous.message == "the CSV has no column 'Id'; did you mean 'ID' or 'id'?")
        guard case .failure(let unknown) = CSVColumns.resolve(["zip"], in: names) else {
            Issue.record("expected a failure")
            return
        }
        #expect(unknown.message == "the CSV has no column 'zip'")
        #expect(CSVColumns.editDistance(Array("phone"), Array("phnoe")) == 1)
        #expect(CSVColumns.editDistance(Array("kitten"), Array("sitting")) == 3)
    }

    /// Found from outside: three names from a Windows-1252 file got one token, since
    /// each invalid byte became U+FFFD. Such a value is refused; a field that is not
    /// tokenized may hold any bytes, and is copied as it is.
    @Test func aValueThatIsNotUTF8IsRefusedAndOtherFieldsMayHoldAnyBytes() throws {
        let input = Array("1,M".utf8) + [0xFC] + Array("ller,a@x.de\n2,\"M".utf8) + [0xE4] + Array("ller\",b@x.de\n".utf8)
        let records = CSVReaderTests.records(CSVReaderTests.read(input, delimiter: UInt8(ascii: ",")).items)
        try #require(records.count == 2)
        #expect(CSVTokenizer.valueIndexes(records[0], columns: [1], fieldCount: 3) == .failure(.notUTF8))
        #expect(CSVTokenizer.valueIndexes(records[1], columns: [2, 1], fieldCount: 3) == .failure(.notUTF8))
        #expect(CSVTokenizer.valueIndexes(records[0], columns: [2], fieldCount: 3) == .success([2]))
        // Converted from another encoding, a field that could not be is refused wherever it is.
        #expect(CSVTokenizer.valueIndexes(records[0], columns: [2], fieldCount: 3, copiesOtherFieldsAsTheyAre: false) == .failure(.notUTF8))
        #expect(CSVTokenizer.rewrite(records[0], replacing: [2: "t@y.zz"]) == Array("1,M".utf8) + [0xFC] + Array("ller,t@y.zz\n".utf8))
    }
}

/// Keeps what a ``CSVReader`` hands its ``SkippedRecordSink``.
final class CollectingSink: SkippedRecordSink {
    var records: [(line: Int, reason: String, bytes: [UInt8])] = []

    func beginSkippedRecord(line: Int, reason: String) throws {
        records.append((line, reason, []))
    }

    func appendSkippedBytes(_ bytes: ArraySlice<UInt8>) throws {
        records[records.count - 1].bytes += bytes
    }
}

/// Nothing is lost: whatever the bytes and however they are split into chunks, the
/// records' bytes and the malformed records' bytes (handed to the sink that `--rejects`
/// uses), in order, are the input exactly.
struct CSVReaderCoverageTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func everyByteComesOutOnceInOrder(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("ab,;\"\r\n".utf8)
        for _ in 0..<400 {
            let length = Int.random(in: 0...60, using: &random)
            let input = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
            let chunkSize = Int.random(in: 1...8, using: &random)
            let limit = Bool.random(using: &random) ? 16 : 16 << 20
            var rest = input[...]
            let sink = CollectingSink()
            var reader = CSVReader(delimiter: nil, maximumRecordBytes: limit) {
                guard !rest.isEmpty else { return nil }
                defer { rest = rest.dropFirst(chunkSize) }
                return Array(rest.prefix(chunkSize))
            }
            reader.skippedRecords = sink
            var output: [UInt8] = []
            var seenSkipped = 0
            var lastLine = 0
            while let item = try reader.next() {
                switch item {
                case .record(let record):
                    output += record.bytes
                    #expect(record.line > lastLine)
                    lastLine = record.line
                case .malformed(let problem):
                    // The sink got this record's bytes just before it was reported.
                    #expect(sink.records.count == seenSkipped + 1)
                    #expect(sink.records.last?.line == problem.lines.lowerBound)
                    output += sink.records.last?.bytes ?? []
                    seenSkipped = sink.records.count
                    #expect(problem.lines.lowerBound > lastLine)
                    lastLine = problem.lines.upperBound
                }
            }
            #expect(output == input, "seed \(seed), chunks of \(chunkSize): \(String(decoding: input, as: UTF8.self).debugDescription)")
        }
    }
}
