import Foundation
import ZeroPiiSDK
import ZeroPiiWire

/// Streams a CSV file through the SDK: reads records, tokenizes the chosen columns in
/// batches of up to 1000 values with several batches in flight, and writes records in
/// their original order with every other byte unchanged (a byte-order mark and blank
/// lines included).
///
/// Memory stays flat: at most `concurrency` batches are held at once. A row that
/// cannot be tokenized (malformed, more or fewer fields than the header, a value over
/// 4096 bytes, or a batch that failed after retries) is reported on standard error by
/// line number, never by value, and is left out of the output so no untokenized value
/// is written. A row with more values than a request holds is sent in several requests
/// and put back together.
///
/// The server connection is opened only when the first batch is ready, so a usage
/// problem (a missing column, an empty file) never starts the embedded server.
final class CSVTokenizer {
    private let options: TokenizeCommand.Options
    private let output: OutputFile
    private let connect: () async throws -> ServerConnection
    private let interruption: Interruption?
    /// Where the rows left out go (`--rejects`), if anywhere.
    private let rejects: RejectedRows?
    /// The last input line whose output was written (the last line of a row that spans
    /// several).
    private var lastWrittenLine = 0

    private var connection: ServerConnection?
    /// Each batch with its requests' answers, in order (one request per
    /// ``ZeroPiiSDK/maximumBatchSize`` values).
    private var inFlight: [(Batch, Task<[BatchTokenizeResult], Never>)] = []
    private var summary = RunSummary()
    private var failedLines: [ClosedRange<Int>] = []
    private var failedRowCount = 0
    private var unanswered = UnansweredBatches()
    /// The number of fields every row must have: the header's, or with --no-header the one
    /// most of the first rows have.
    private var fieldCount = 0
    private var encoding = InputEncoding.utf8
    /// Why the run stopped before the end of its input (--strict, a server that went
    /// away), for the one line that says so.
    private var stopMessage: String?
    /// Whether the note on bytes that are not UTF-8 in other columns has been given.
    private var notedOtherBytes = false
    /// The rows read so far, for the progress bar (the summary counts rows written).
    private var rowsRead = 0
    /// The bytes of the rows read so far (as UTF-8), for the progress bar.
    private var bytesParsed = 0

    private struct Batch {
        var records: [CSVReader.Record] = []
        /// For each record, the indexes of the fields to replace (non-empty ones);
        /// empty for a blank line.
        var fieldIndexes: [[Int]] = []
        var values: [String] = []
    }

    /// - Parameter connect: opens the server connection; called once, when the first
    ///   values are ready to send. The tokenizer closes it at the end.
    init(
        options: TokenizeCommand.Options, output: OutputFile, rejects: RejectedRows? = nil,
        connect: @escaping () async throws -> ServerConnection, interruption: Interruption? = nil
    ) {
        self.options = options
        self.output = output
        self.rejects = rejects
        self.connect = connect
        self.interruption = interruption
    }

    /// Throws ``Interrupted`` once SIGINT or SIGTERM has come.
    private func checkInterruption() throws {
        if let signal = interruption?.signal { throw Interrupted(signal: signal) }
    }

    /// Tokenizes `input` to the output; returns the exit status. Problems are reported
    /// on standard error.
    func run(input: DecodedInput) async -> Int32 {
        defer {
            for (_, task) in inFlight { task.cancel() }
            connection?.close()
        }
        do {
            return try await process(input)
        } catch is OutputClosedError {
            // The output's reader went away (| head): quiet, but the rows left out so far
            // are kept, since nothing else holds them.
            if let rejects, rejects.count > 0, let kept = EarlyEnd.keptRejects(rejects) {
                Console.error("zeropii: the output's reader went away; \(kept)")
            }
            return OutputClosedError.exitStatus
        } catch let stop as any RunStop {
            await letInFlightBatchesEnd()
            // The rows before the stop were tokenized: they are written.
            return EarlyEnd.stopped(by: stop, output: output, rejects: rejects, lastWrittenLine: lastWrittenLine)
        } catch let interrupted as Interrupted {
            // The batches in flight are cancelled as the run returns (see `defer`).
            return EarlyEnd.interrupted(by: interrupted.signal, output: output, rejects: rejects, lastWrittenLine: lastWrittenLine)
        } catch is CancellationError {
            // A signal cancelled the run while it waited for input.
            guard let signal = interruption?.signal else {
                Console.error("zeropii: the run was cancelled")
                return 1
            }
            return EarlyEnd.interrupted(by: signal, output: output, rejects: rejects, lastWrittenLine: lastWrittenLine)
        } catch let failure as CSVColumns.Failure {
            Usage.fail(failure.message, hint: failure.hint)
            return 2
        } catch let problem as InputEncodingProblem {
            Usage.fail(problem.message, hint: problem.hint)
            return 2
        } catch {
            Console.error("zeropii: \(error)")
            return 1
        }
    }

    private func process(_ input: DecodedInput) async throws -> Int32 {
        var reader = CSVReader(input: input, delimiter: options.delimiter)
        reader.skippedRecords = rejects
        let progress = Progress(quiet: options.quiet, input: input, output: output)
        // Also when the run stops early: the terminal's line is left clean.
        defer { progress.finish() }
        let started = Date()

        try reader.readPreamble()
        encoding = input.encoding
        if input.hadByteOrderMark, let mark = InputEncoding.utf8.byteOrderMark {
            try output.write(mark)
            try rejects?.output.write(mark)
        }
        // The items read ahead of the main loop: with --no-header, the first rows, which
        // decide the field count.
        var pending: [CSVReader.Item] = []
        var columnIndexes: [Int] = []
        var columnsKnown = false
        if options.noHeader {
            try rejects?.start(delimiter: reader.delimiter, lineBreak: reader.lineBreak, header: nil)
            pending = try Self.sample(&reader, input: input)
            let counts = pending.compactMap { item -> Int? in
                guard case .record(let record) = item, !record.isBlank else { return nil }
                return record.fields.count
            }
            if let common = Self.mostCommon(counts) {
                switch CSVColumns.resolve(positions: options.columnPositions, fieldCount: common) {
                case .failure(let failure): throw failure
                case .success(let resolution): columnIndexes = resolution.indexes
                }
                fieldCount = common
            }
            columnsKnown = true
        }
        // The header names the columns; blank lines before it pass through.
        while !columnsKnown, let item = try reader.next() {
            switch item {
            case .malformed(let problem):
                Console.error("zeropii: the header row is malformed (\(Self.name(problem.lines)): \(problem.reason))")
                return 1
            case .record(let record):
                if record.isBlank {
                    summary.blankLines += 1
                    try output.write(record.bytes)
                    lastWrittenLine = record.lastLine
                    continue
                }
                switch CSVColumns.resolve(options.columns, in: record.fields.map(\.value)) {
                case .failure(let failure): throw failure
                case .success(let resolution):
                    for note in resolution.notes { Console.error("zeropii: note: \(note)") }
                    columnIndexes = resolution.indexes
                }
                fieldCount = record.fields.count
                columnsKnown = true
                try rejects?.start(delimiter: reader.delimiter, lineBreak: reader.lineBreak, header: record.bytes)
                try output.write(record.bytes)
                lastWrittenLine = record.lastLine
            }
        }

        let rowsPerBatch = max(1, ZeroPiiSDK.maximumBatchSize / max(1, columnIndexes.count))
        var batch = Batch()
        var nextPending = 0

        reading: while columnsKnown {
            let item: CSVReader.Item
            if nextPending < pending.count {
                item = pending[nextPending]
                nextPending += 1
                if nextPending == pending.count { pending = [] }
            } else {
                if Self.wouldWait(for: reader, input) {
                    // A slow producer: what was read goes out now rather than when a
                    // batch fills.
                    if !batch.records.isEmpty { try await dispatch(batch) }
                    batch = Batch()
                    try await drain()
                    try output.flush()
                }
                guard let next = try reader.next() else { break }
                item = next
            }
            try checkInterruption()
            if unanswered.serverIsGone {
                let line: Int
                switch item {
                case .record(let record): line = record.line
                case .malformed(let problem): line = problem.lines.lowerBound
                }
                // A batch held back by `dispatch` may have said so from an earlier line.
                if stopMessage == nil {
                    stopMessage = unanswered.stop(server: connection?.displayURL ?? "?", unsent: "lines \(line)").description
                }
                break reading
            }
            switch item {
            case .malformed(let problem):
                reportMalformed(problem)
                if options.strict {
                    stopMessage = "--strict stopped the run at \(Self.name(problem.lines)); nothing after it was read"
                    break reading
                }
            case .record(let record):
                rowsRead += record.isBlank ? 0 : 1
                bytesParsed += record.bytes.count
                if record.isBlank {
                    summary.blankLines += 1
                    batch.records.append(record)
                    batch.fieldIndexes.append([])
                } else {
                    let indexes: [Int]
                    switch Self.valueIndexes(
                        record, columns: columnIndexes, fieldCount: fieldCount, copiesOtherFieldsAsTheyAre: encoding == .utf8)
                    {
                    case .success(let found):
                        indexes = found
                        if !notedOtherBytes && !record.fields.allSatisfy(\.isUTF8) {
                            notedOtherBytes = true
                            Console.error(
                                "zeropii: note: line \(record.line) has bytes that are not UTF-8 in a column not tokenized; they are copied as they are (give --encoding windows-1252 or iso-8859-1 to convert the file to UTF-8)"
                            )
                        }
                    case .failure(let problem):
                        let reason = problem.reason(reference: referenceRow, encoding: encoding)
                        Console.error("zeropii: line \(record.line) \(reason); \(leftOut(rows: 1))")
                        noteFailed(record.line...record.lastLine)
                        try rejects?.write(line: record.line, reason: reason, bytes: record.bytes)
                        if options.strict {
                            stopMessage = "--strict stopped the run at line \(record.line); nothing after it was read"
                            break reading
                        }
                        continue
                    }
                    batch.records.append(record)
                    batch.fieldIndexes.append(indexes)
                    batch.values.append(contentsOf: indexes.map { record.fields[$0].value })
                }
                // Blank lines count towards a batch's size too, so a long run of them is
                // not held in memory.
                if batch.records.count >= rowsPerBatch || batch.values.count + columnIndexes.count > ZeroPiiSDK.maximumBatchSize {
                    try await dispatch(batch)
                    batch = Batch()
                    progress.update(rows: rowsRead, bytes: input.fileBytes(forConsumed: bytesParsed))
                }
            }
        }
        // With --strict the rows before the malformed one are still written.
        if !batch.records.isEmpty { try await dispatch(batch) }
        try await drain()
        try checkInterruption()
        // A run that stopped before the end of its input (--strict, a server that went
        // away) does not replace an output file either.
        return try end(early: stopMessage != nil, progress: progress, started: started)
    }

    /// With --no-header: the first rows (up to ``sampleRows`` of them, or
    /// ``sampleBytes``), whose most common field count every row must have. One odd first
    /// row (an unquoted "Smith, Bob") must not set it: its extra field would push a value
    /// out of the columns tokenized, into the clear. From a slow producer (a pipe with
    /// nothing more waiting), the rows that came so far decide, so that they go out now.
    private static func sample(_ reader: inout CSVReader, input: DecodedInput) throws -> [CSVReader.Item] {
        var items: [CSVReader.Item] = []
        var rows = 0
        var bytes = 0
        while rows < sampleRows, bytes < sampleBytes {
            if rows > 0 && wouldWait(for: reader, input) { break }
            guard let item = try reader.next() else { break }
            items.append(item)
            if case .record(let record) = item, !record.isBlank {
                rows += 1
                bytes += record.bytes.count
            }
        }
        return items
    }

    /// True when the next record would wait for a slow producer: no whole line is
    /// buffered and the pipe has nothing more now (a file always has).
    private static func wouldWait(for reader: CSVReader, _ input: DecodedInput) -> Bool {
        reader.needsInput && !(input.file?.isReadyToRead ?? true)
    }

    static let sampleRows = 1000
    static let sampleBytes = 16 << 20

    /// The value seen most often; on a tie, the one seen first.
    static func mostCommon(_ values: [Int]) -> Int? {
        var counts: [Int: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        guard let best = counts.values.max() else { return nil }
        return values.first { counts[$0] == best }
    }

    /// Ends the run: the files in place (or kept as partial ones when it stopped early),
    /// the summary and the failed lines on standard error; returns the exit status.
    private func end(early: Bool, progress: Progress, started: Date) throws -> Int32 {
        try rejects?.endLine()
        if early {
            try output.flush()
            try rejects?.output.flush()
        } else {
            try output.finish()
            try rejects?.output.finish()
        }
        progress.finish()

        summary.elapsed = Date().timeIntervalSince(started)
        summary.retries = connection?.retries.retries ?? 0
        summary.failedRows = failedRowCount
        summary.rejectsName = early ? nil : rejects?.output.name
        if !options.quiet { Console.error(summary.text) }
        if !failedLines.isEmpty {
            let shown = failedLines.prefix(20).map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            let more = failedLines.count > 20 ? " and \(failedLines.count - 20) more" : ""
            let rows = failedRowCount == 1 ? "failed row on" : "failed rows on"
            let lines = failedLines.count == 1 && failedLines[0].count == 1 ? "line" : "lines"
            Console.error("zeropii: \(rows) \(lines) \(shown.joined(separator: ", "))\(more)")
        }
        if let stopMessage { EarlyEnd.keepPartial(output, rejects: rejects, lastWrittenLine: lastWrittenLine, reason: stopMessage) }
        return early || !failedLines.isEmpty ? 1 : 0
    }

    /// Reports a malformed record on standard error (its bytes went to the rejects file
    /// as the reader passed them).
    private func reportMalformed(_ problem: CSVReader.Malformed) {
        Console.error("zeropii: \(Self.describe(problem.lines)) malformed (\(problem.reason)); \(leftOut(rows: problem.lines.count))")
        noteFailed(problem.lines)
    }

    /// How a message ends for a row not written: left out, or where --strict stops.
    private func leftOut(rows lines: Int) -> String {
        if options.strict { return "--strict stops the run here" }
        return lines == 1 ? "the row was left out" : "the rows were left out"
    }

    /// What a row's field count is compared with: "the header's", or with --no-header
    /// that of most rows.
    private var referenceRow: String { options.noHeader ? "most rows'" : "the header's" }

    /// Counts a failed row (one record, whatever lines it covers) and adds its lines to the report, joining them to the last range when they follow it.
    private func noteFailed(_ lines: ClosedRange<Int>) {
        failedRowCount += 1
        if let last = failedLines.last, lines.lowerBound <= last.upperBound + 1, lines.lowerBound >= last.lowerBound {
            failedLines[failedLines.count - 1] = last.lowerBound...max(last.upperBound, lines.upperBound)
        } else {
            failedLines.append(lines)
        }
    }

    /// "line 3 is" or "lines 2 to 9 are".
    static func describe(_ lines: ClosedRange<Int>) -> String {
        lines.count == 1 ? "\(name(lines)) is" : "\(name(lines)) are"
    }

    /// "line 3" or "lines 2 to 9".
    static func name(_ lines: ClosedRange<Int>) -> String {
        lines.count == 1 ? "line \(lines.lowerBound)" : "lines \(lines.lowerBound) to \(lines.upperBound)"
    }

    private func dispatch(_ full: Batch) async throws {
        if unanswered.isSuspect {
            // The server may be gone: the batches in flight end first, and once it is
            // taken to be gone this batch is not sent (nor its lines written).
            try await drain()
        }
        if unanswered.serverIsGone {
            if stopMessage == nil, let first = full.records.first {
                stopMessage = unanswered.stop(server: connection?.displayURL ?? "?", unsent: "lines \(first.line)").description
            }
            return
        }
        if full.values.isEmpty {
            // Nothing to send, but the batches still in flight come first.
            try await drain()
            for record in full.records {
                try output.write(record.bytes)
                lastWrittenLine = record.lastLine
                if !record.isBlank { summary.rows += 1 }
            }
            return
        }
        let connection = try await openConnection()
        let size = ZeroPiiSDK.maximumBatchSize
        let requests = stride(from: 0, to: full.values.count, by: size).map { Array(full.values[$0..<min($0 + size, full.values.count)]) }
        let sdk = connection.sdk
        inFlight.append(
            (
                full,
                Task {
                    var answers: [BatchTokenizeResult] = []
                    for values in requests {
                        let answer = await sdk.batchTokenize(values)
                        answers.append(answer)
                        if !answer.isSuccess { break }
                    }
                    return answers
                }
            ))
        if inFlight.count >= options.concurrency {
            let (oldest, task) = inFlight.removeFirst()
            try finish(oldest, await task.valueEndingWithItsWaiter)
        }
    }

    /// Lets the batches still in flight end, their answers unread, before a stopped run
    /// returns and the process exits. They end soon: every later batch fails the way the
    /// one that stopped the run did. Cut short at exit instead (CurlTransport ends every
    /// transfer then), a batch's token fetch failed as cancelled and printed a line of its
    /// own after the stop.
    private func letInFlightBatchesEnd() async {
        while !inFlight.isEmpty { _ = await inFlight.removeFirst().1.value }
    }

    /// Waits for every batch in flight and writes them out, oldest first.
    private func drain() async throws {
        while !inFlight.isEmpty {
            let (pending, task) = inFlight.removeFirst()
            try finish(pending, await task.valueEndingWithItsWaiter)
        }
    }

    private func openConnection() async throws -> ServerConnection {
        if let connection { return connection }
        let opened = try await connect()
        connection = opened
        return opened
    }

    private func finish(_ batch: Batch, _ answers: [BatchTokenizeResult]) throws {
        // A batch that a signal cancelled is no failure to report: the run ends here.
        try checkInterruption()
        let failure = answers.first { !$0.isSuccess }
        let tokens = answers.flatMap(\.results)
        unanswered.record(failure, reason: NetworkFailureText.describe(failure?.errorMessage ?? ""))
        guard failure == nil, tokens.count == batch.values.count else {
            let rows = batch.records.filter { !$0.isBlank }
            let first = rows.first?.line ?? 0
            let last = rows.last?.line ?? 0
            // The embedded server's vault cannot store tokens (a full disk): every later
            // batch would fail the same way, so the run stops with the cause, once.
            if let stop = connection?.embeddedVaultFailure(status: failure?.httpStatusCode?.intValue, firstNotTokenized: "line \(first)") {
                throw stop
            }
            if let stop = connection?.refusalForTheRun(
                status: failure?.httpStatusCode?.intValue, kind: failure?.errorKind, firstNotTokenized: "line \(first)")
            {
                throw stop
            }
            if let stop = unanswered.permanentStop(server: connection?.displayURL ?? "?", firstNotTokenized: "line \(first)") { throw stop }
            let reason = NetworkFailureText.describe(failure?.errorMessage ?? "the server's answer did not match the request")
            let which = first == last ? "the row on line \(first)" : "rows on lines \(first) to \(last)"
            Console.error("zeropii: \(which) could not be tokenized: \(reason) (\(connection?.displayURL ?? "?"))")
            for row in rows {
                noteFailed(row.line...row.line)
                try rejects?.write(line: row.line, reason: "could not be tokenized: \(reason)", bytes: row.bytes)
            }
            // Blank lines stay in the output even when their neighbours failed.
            for record in batch.records where record.isBlank { try output.write(record.bytes) }
            return
        }
        var next = 0
        for (record, indexes) in zip(batch.records, batch.fieldIndexes) {
            var replacements: [Int: String] = [:]
            for index in indexes {
                let item = tokens[next]
                replacements[index] = item.token
                if item.newlyCreated { summary.created += 1 } else { summary.existing += 1 }
                next += 1
            }
            try output.write(Self.rewrite(record, replacing: replacements))
            lastWrittenLine = record.lastLine
            if !record.isBlank { summary.rows += 1 }
        }
        summary.values += batch.values.count
    }

    /// The indexes of the fields to tokenize in `record` (empty fields stay as they
    /// are), or why the row cannot be sent: it has more or fewer fields than the
    /// header's `fieldCount` (its values would not stand under their names: `Smith,
    /// John` unquoted pushes an email into the next column, out of the one tokenized),
    /// or a value is not UTF-8 or longer than the protocol allows.
    static func valueIndexes(
        _ record: CSVReader.Record, columns: [Int], fieldCount: Int, copiesOtherFieldsAsTheyAre: Bool = true
    ) -> Result<[Int], RowProblem> {
        // Text that could not be converted from another encoding, anywhere in the row,
        // would be written out as bytes this run made up: the row is refused. (UTF-8 input
        // keeps the bytes of columns not tokenized as they came.)
        if !copiesOtherFieldsAsTheyAre, !record.fields.allSatisfy(\.isUTF8) { return .failure(.notUTF8) }
        guard record.fields.count == fieldCount else {
            return .failure(
                record.fields.count > fieldCount
                    ? .tooManyFields(record.fields.count, header: fieldCount) : .tooFewFields(record.fields.count, header: fieldCount))
        }
        var indexes: [Int] = []
        for column in columns {
            let field = record.fields[column]
            guard field.isUTF8 else { return .failure(.notUTF8) }
            if field.value.isEmpty { continue }
            guard field.value.utf8.count <= maximumValueBytes else { return .failure(.valueTooLong) }
            indexes.append(column)
        }
        return .success(indexes)
    }

    /// The longest value the protocol takes, in UTF-8 bytes.
    static let maximumValueBytes = WireLimits.maximumValueBytes

    /// Why a row's values cannot be sent.
    enum RowProblem: Error, Equatable {
        case tooManyFields(Int, header: Int)
        case tooFewFields(Int, header: Int)
        case valueTooLong
        case notUTF8

        /// What the row's line has, for the one line naming it (never the value).
        /// - Parameters:
        ///   - reference: what the field count is compared with: "the header's", "the
        ///     first row's".
        ///   - encoding: the input's encoding.
        func reason(reference: String = "the header's", encoding: InputEncoding = .utf8) -> String {
            switch self {
            case .tooManyFields(let count, let header):
                return "has \(count) fields, more than \(reference) \(header) (an unquoted delimiter in a value?)"
            case .tooFewFields(let count, let header):
                return "has \(count) \(count == 1 ? "field" : "fields"), fewer than \(reference) \(header)"
            case .valueTooLong:
                return "has a value over \(CSVTokenizer.maximumValueBytes) bytes"
            case .notUTF8 where encoding == .utf8:
                return "has text that is not UTF-8 (is the file in another encoding? give --encoding windows-1252 for Excel's CSV from Windows)"
            case .notUTF8:
                return "has text that is not valid \(encoding.rawValue) (a broken or cut-off character)"
            }
        }
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
