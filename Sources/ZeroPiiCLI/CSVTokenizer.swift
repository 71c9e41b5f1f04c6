import Foundation
import ZeroPiiSDK

/// Streams a CSV file through the SDK: reads records, tokenizes the chosen columns in
/// batches of up to 1000 values with several batches in flight, and writes records in
/// their original order with every other byte unchanged.
///
/// Memory stays flat: at most `concurrency` batches are held at once. A row that
/// cannot be tokenized (malformed, a value over 4096 bytes, or a batch that failed
/// after retries) is reported on standard error by line number, never by value, and
/// is left out of the output so no untokenized value is written.
struct CSVTokenizer {
    let options: TokenizeCommand.Options
    let sdk: ZeroPiiSDK
    let retries: CountingRetryPolicy

    private struct Batch {
        var records: [CSVReader.Record] = []
        /// For each record, the indexes of the fields to replace (non-empty ones).
        var fieldIndexes: [[Int]] = []
        var values: [String] = []
    }

    private struct Counters {
        var rows = 0
        var values = 0
        var created = 0
        var existing = 0
        var failedLines: [Int] = []
    }

    func run(inputPath: String) async -> Int32 {
        guard let input = inputPath == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: inputPath) else {
            Usage.fail("cannot read '\(inputPath)'", hint: "check the path given to --csv")
            return 2
        }
        let output: FileHandle
        if options.outputPath == "-" {
            output = FileHandle.standardOutput
        } else {
            guard FileManager.default.createFile(atPath: options.outputPath, contents: nil),
                let handle = FileHandle(forWritingAtPath: options.outputPath)
            else {
                Usage.fail("cannot write '\(options.outputPath)'", hint: "check the path given to --output")
                return 2
            }
            output = handle
        }
        let totalBytes = inputPath == "-" ? nil : (try? FileManager.default.attributesOfItem(atPath: inputPath)[.size] as? Int) ?? nil

        var reader = CSVReader(handle: input)
        let writer = BufferedWriter(handle: output)
        let progress = Progress(enabled: !options.quiet && isatty(STDERR_FILENO) == 1, totalBytes: totalBytes)
        var counters = Counters()
        var bytesRead = 0

        // The header names the columns.
        var columnIndexes: [Int] = []
        while columnIndexes.isEmpty {
            switch reader.next() {
            case nil:
                writer.flush()
                return 0
            case .malformed(let line, let reason):
                FileHandle.standardError.write(Data("zeropii: the header row (line \(line)) is malformed: \(reason)\n".utf8))
                return 1
            case .record(let header):
                bytesRead += header.bytes.count
                let names = header.fields.map(\.value)
                for column in options.columns {
                    guard let position = names.firstIndex(of: column) else {
                        Usage.fail("the CSV has no column '\(column)'", hint: "its columns are: \(names.joined(separator: ", "))")
                        return 2
                    }
                    columnIndexes.append(position)
                }
                writer.write(header.bytes)
            }
        }

        let rowsPerBatch = max(1, ZeroPiiSDK.maximumBatchSize / columnIndexes.count)
        var inFlight: [(Batch, Task<BatchTokenizeResult, Never>)] = []
        var batch = Batch()
        var stopped = false
        let started = Date()
        // A circuit breaker: after this many batches in a row fail without any HTTP
        // response, the server is taken to be gone and the rest of the input is not sent.
        let unreachableAfter = 3
        var consecutiveNetworkFailures = 0

        func finish(_ batch: Batch, _ result: BatchTokenizeResult) {
            let networkFailure = result.errorKind == .network
            consecutiveNetworkFailures = networkFailure ? consecutiveNetworkFailures + 1 : 0
            guard result.isSuccess else {
                FileHandle.standardError.write(
                    Data(
                        "zeropii: rows on lines \(batch.records.first!.line) to \(batch.records.last!.line) could not be tokenized: \(result.errorMessage ?? "unknown error")\n"
                            .utf8))
                counters.failedLines.append(contentsOf: batch.records.map(\.line))
                return
            }
            var next = 0
            for (record, indexes) in zip(batch.records, batch.fieldIndexes) {
                var replacements: [Int: String] = [:]
                for index in indexes {
                    let item = result.results[next]
                    replacements[index] = item.token
                    if item.newlyCreated { counters.created += 1 } else { counters.existing += 1 }
                    next += 1
                }
                writer.write(Self.rewrite(record, replacing: replacements))
                counters.rows += 1
            }
            counters.values += batch.values.count
        }

        func dispatch(_ full: Batch) async {
            if full.values.isEmpty {
                for record in full.records { writer.write(record.bytes); counters.rows += 1 }
                return
            }
            let values = full.values
            let sdk = self.sdk
            inFlight.append((full, Task { await sdk.batchTokenize(values) }))
            if inFlight.count >= options.concurrency {
                let (oldest, task) = inFlight.removeFirst()
                finish(oldest, await task.value)
            }
        }

        var unreachableFromLine: Int?
        reading: while let item = reader.next() {
            if consecutiveNetworkFailures >= unreachableAfter {
                if case .record(let record) = item { unreachableFromLine = record.line }
                if case .malformed(let line, _) = item { unreachableFromLine = line }
                stopped = true
                break reading
            }
            switch item {
            case .malformed(let line, let reason):
                FileHandle.standardError.write(Data("zeropii: line \(line) is malformed (\(reason)); the row was left out\n".utf8))
                counters.failedLines.append(line)
                if options.strict {
                    stopped = true
                    break reading
                }
            case .record(let record):
                bytesRead += record.bytes.count
                guard let indexes = Self.valueIndexes(record, columns: columnIndexes) else {
                    FileHandle.standardError.write(
                        Data("zeropii: line \(record.line) has too few fields or a value over 4096 bytes; the row was left out\n".utf8))
                    counters.failedLines.append(record.line)
                    if options.strict {
                        stopped = true
                        break reading
                    }
                    continue
                }
                batch.records.append(record)
                batch.fieldIndexes.append(indexes)
                batch.values.append(contentsOf: indexes.map { record.fields[$0].value })
                if batch.records.count >= rowsPerBatch {
                    await dispatch(batch)
                    batch = Batch()
                }
                progress.update(rows: counters.rows + inFlight.reduce(0) { $0 + $1.0.records.count }, bytes: bytesRead)
            }
        }
        // With --strict the rows before the malformed one are still written.
        if !batch.records.isEmpty { await dispatch(batch) }
        for (pending, task) in inFlight {
            finish(pending, await task.value)
        }
        writer.flush()
        progress.finish()

        let elapsed = Date().timeIntervalSince(started)
        if !options.quiet {
            let rate = elapsed > 0 ? Double(counters.rows) / elapsed : 0
            FileHandle.standardError.write(
                Data(
                    String(
                        format: "zeropii: %d rows, %d values (%d new tokens, %d existing), %d retries, %d rows failed, %.1f s (%.0f rows/s)\n",
                        counters.rows, counters.values, counters.created, counters.existing, retries.retries,
                        counters.failedLines.count, elapsed, rate
                    ).utf8))
        }
        if let line = unreachableFromLine {
            FileHandle.standardError.write(Data("zeropii: the server stopped answering; lines \(line) to the end were not sent\n".utf8))
        }
        if !counters.failedLines.isEmpty {
            let lines = counters.failedLines.prefix(20).map(String.init).joined(separator: ", ")
            let more = counters.failedLines.count > 20 ? " and \(counters.failedLines.count - 20) more" : ""
            FileHandle.standardError.write(Data("zeropii: failed rows on lines \(lines)\(more)\n".utf8))
            return 1
        }
        return stopped || unreachableFromLine != nil ? 1 : 0
    }

    /// The indexes of the fields to tokenize in `record` (empty fields stay as they
    /// are); nil when a column is missing or a value is longer than the protocol allows.
    static func valueIndexes(_ record: CSVReader.Record, columns: [Int]) -> [Int]? {
        var indexes: [Int] = []
        for column in columns {
            guard column < record.fields.count else { return nil }
            let value = record.fields[column].value
            if value.isEmpty { continue }
            guard value.utf8.count <= 4096 else { return nil }
            indexes.append(column)
        }
        return indexes
    }

    /// The record's bytes with the given fields replaced, quoted the way they were.
    static func rewrite(_ record: CSVReader.Record, replacing replacements: [Int: String]) -> [UInt8] {
        guard !replacements.isEmpty else { return record.bytes }
        var output: [UInt8] = []
        output.reserveCapacity(record.bytes.count + 8)
        var cursor = 0
        for (index, field) in record.fields.enumerated() {
            guard let token = replacements[index] else { continue }
            output.append(contentsOf: record.bytes[cursor..<field.range.lowerBound])
            if field.isQuoted {
                output.append(UInt8(ascii: "\""))
                for byte in token.utf8 {
                    if byte == UInt8(ascii: "\"") { output.append(byte) }
                    output.append(byte)
                }
                output.append(UInt8(ascii: "\""))
            } else {
                output.append(contentsOf: token.utf8)
            }
            cursor = field.range.upperBound
        }
        output.append(contentsOf: record.bytes[cursor...])
        return output
    }
}

/// Collects output and writes it in large chunks.
final class BufferedWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(handle: FileHandle) {
        self.handle = handle
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Rows done, rate, time left and a bar on standard error, when it is a terminal.
final class Progress {
    private let enabled: Bool
    private let totalBytes: Int?
    private let started = Date()
    private var lastDrawn = Date.distantPast

    init(enabled: Bool, totalBytes: Int?) {
        self.enabled = enabled
        self.totalBytes = totalBytes
    }

    func update(rows: Int, bytes: Int) {
        guard enabled, Date().timeIntervalSince(lastDrawn) >= 0.25 else { return }
        lastDrawn = Date()
        let elapsed = max(0.001, Date().timeIntervalSince(started))
        let rate = Double(rows) / elapsed
        var line = String(format: "\r%9d rows  %8.0f rows/s", rows, rate)
        if let totalBytes, totalBytes > 0 {
            let fraction = min(1, Double(bytes) / Double(totalBytes))
            let width = 24
            let filled = Int(fraction * Double(width))
            let left = fraction > 0 ? elapsed / fraction - elapsed : 0
            line += "  [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
            line += String(format: " %3.0f%%  %4.0f s left", fraction * 100, left)
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
