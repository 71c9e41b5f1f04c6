import Foundation
import Testing

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
        #expect(Self.records(Self.read("a\rb,c\n")).first?.fields.map(\.value) == ["a\rb", "c"])
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
        #expect(CSVTokenizer.valueIndexes(records[0], columns: [1, 2]) == [2])
        #expect(CSVTokenizer.valueIndexes(records[1], columns: [1, 2]) == nil)
        #expect(CSVTokenizer.valueIndexes(records[2], columns: [1]) == nil)
    }
}
