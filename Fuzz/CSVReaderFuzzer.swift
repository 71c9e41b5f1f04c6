import Foundation

@testable import ZeroPiiCLI

// libFuzzer target: arbitrary bytes through the CSV reader in small chunks. It must
// never crash, and the records it returns must be the input's bytes, in order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var remaining = Array(UnsafeRawBufferPointer(start: start, count: count))[...]
    let chunk = max(1, remaining.first.map { Int($0 % 7) } ?? 1)
    var reader = CSVReader {
        guard !remaining.isEmpty else { return nil }
        defer { remaining = remaining.dropFirst(chunk) }
        return Array(remaining.prefix(chunk))
    }
    var lastLine = 0
    // The source never throws, so neither does the reader.
    while let item = try? reader.next() {
        switch item {
        case .record(let record):
            precondition(record.line > lastLine, "line numbers went backwards")
            lastLine = record.line
            for field in record.fields {
                precondition(field.range.upperBound <= record.bytes.count, "a field outside its record")
            }
        case .malformed(let problem):
            precondition(problem.lines.lowerBound > lastLine || lastLine == 0, "line numbers went backwards")
            lastLine = problem.lines.upperBound
        }
    }
    return 0
}
