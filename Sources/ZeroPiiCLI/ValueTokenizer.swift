import Foundation
import ZeroPiiSDK

/// Tokenizes values given on the command line or read one per line (`tokenize -`,
/// `--values-from FILE`) and prints one token per line, in order.
///
/// Lines stream through in batches of up to 1000 with several in flight, so a file of
/// any length runs in flat memory. When the input is a terminal or a pipe with nothing
/// more waiting, what has been read is sent and answered at once instead of waiting
/// for a full batch. An empty line gives an empty line. A value that cannot be
/// tokenized is reported on standard error by its position (never by value), gives an
/// empty line in its place, so that line N of the output always answers value N (a
/// script that pastes tokens back beside their values stays aligned), and makes the
/// exit status 1. Values read one per line end with the summary on standard error
/// (unless `--quiet`), as a CSV does.
final class ValueTokenizer {
    enum Source {
        case arguments([String])
        case lines(DecodedInput)
    }

    private let options: TokenizeCommand.Options
    private let output: OutputFile
    private let connect: () async throws -> ServerConnection
    private let interruption: Interruption?
    /// The last input line (or value given) whose output was written.
    private var lastWrittenLine = 0
    private var connection: ServerConnection?
    private var inFlight: [(Batch, Task<BatchTokenizeResult, Never>)] = []
    private var failed = false
    private var unanswered = UnansweredBatches()
    private var summary = RunSummary(unit: "line")
    /// "value" for arguments, "line" for lines read.
    private var positionName = "value"

    private struct Batch {
        /// Each position with its value; nil for an empty line, passed through, and for a
        /// value already reported as one that cannot be sent, which keeps its place.
        var items: [(position: Int, value: String?)] = []
        var values: [String] = []
    }

    init(
        options: TokenizeCommand.Options, output: OutputFile, connect: @escaping () async throws -> ServerConnection,
        interruption: Interruption? = nil
    ) {
        self.options = options
        self.output = output
        self.connect = connect
        self.interruption = interruption
    }

    /// Throws ``Interrupted`` once SIGINT or SIGTERM has come.
    private func checkInterruption() throws {
        if let signal = interruption?.signal { throw Interrupted(signal: signal) }
    }

    /// Tokenizes every value of `source`; returns the exit status.
    func run(_ source: Source) async -> Int32 {
        defer {
            for (_, task) in inFlight { task.cancel() }
            connection?.close()
        }
        let started = Date()
        do {
            switch source {
            case .arguments(let values):
                var batch = Batch()
                for (offset, value) in values.enumerated() {
                    try await add(position: offset + 1, value: value, to: &batch)
                }
                try await dispatch(batch)
            case .lines(let input):
                positionName = "line"
                try await tokenizeLines(of: input)
            }
            try await drain()
            try checkInterruption()
            try output.finish()
            if case .lines = source { printSummary(started: started) }
            return failed ? 1 : 0
        } catch is OutputClosedError {
            return OutputClosedError.exitStatus
        } catch let stop as ServerStoppedAnswering {
            await letInFlightBatchesEnd()
            // As at the end of the input: the summary, then where the input stopped.
            if case .lines = source { printSummary(started: started) }
            return EarlyEnd.stopped(by: stop, output: output, lastWrittenLine: lastWrittenLine)
        } catch let stop as any RunStop {
            await letInFlightBatchesEnd()
            // The values before the stop were tokenized: their lines are written.
            return EarlyEnd.stopped(by: stop, output: output, lastWrittenLine: lastWrittenLine)
        } catch let interrupted as Interrupted {
            // The batches in flight are cancelled as the run returns (see `defer`).
            return EarlyEnd.interrupted(by: interrupted.signal, output: output, lastWrittenLine: lastWrittenLine)
        } catch is CancellationError {
            // A signal cancelled the run while it waited for input.
            guard let signal = interruption?.signal else {
                Console.error("zeropii: the run was cancelled")
                return 1
            }
            return EarlyEnd.interrupted(by: signal, output: output, lastWrittenLine: lastWrittenLine)
        } catch let problem as InputEncodingProblem {
            Usage.fail(problem.message, hint: problem.hint)
            return 2
        } catch {
            Console.error("zeropii: \(error)")
            return 1
        }
    }

    /// The run's summary on standard error, for values read one per line, unless `--quiet`.
    private func printSummary(started: Date) {
        guard !options.quiet else { return }
        summary.elapsed = Date().timeIntervalSince(started)
        summary.retries = connection?.retries.retries ?? 0
        Console.error(summary.text)
    }

    private func tokenizeLines(of input: DecodedInput) async throws {
        var reader = LineReader { try input.read() }
        var batch = Batch()
        let progress = Progress(quiet: options.quiet, input: input, output: output, unit: "line")
        // Also when the run stops early: the terminal's line is left clean.
        defer { progress.finish() }
        var linesRead = 0
        while true {
            try checkInterruption()
            if let line = reader.nextBufferedLine() {
                linesRead += 1
                switch line {
                case .text(let number, let value):
                    try await add(position: number, value: value, to: &batch)
                    if linesRead % 1000 == 0 { progress.update(rows: linesRead, bytes: input.fileBytes(forConsumed: reader.consumedBytes)) }
                case .tooLong(let number):
                    Console.error("zeropii: line \(number) is longer than \(CSVTokenizer.maximumValueBytes) bytes; its output line is left empty")
                    try await keepPlace(of: number, in: &batch)
                case .notUTF8(let number):
                    let problem =
                        input.encoding == .utf8
                        ? "is not UTF-8 (is the input in another encoding? give --encoding windows-1252 for text from Windows)"
                        : "is not valid \(input.encoding.rawValue)"
                    Console.error("zeropii: line \(number) \(problem); its output line is left empty")
                    try await keepPlace(of: number, in: &batch)
                }
                continue
            }
            if reader.isAtEnd { break }
            if !(input.file?.isReadyToRead ?? true) {
                // Someone is typing, or a producer is slow: answer what came so far.
                try await dispatch(batch)
                batch = Batch()
                try await drain()
                try output.flush()
            }
            try reader.fill()
        }
        try await dispatch(batch)
    }

    private func add(position: Int, value: String, to batch: inout Batch) async throws {
        try await stopIfTheServerIsGone(before: position)
        if value.isEmpty {
            summary.blankLines += 1
            batch.items.append((position, nil))
        } else if value.utf8.count > CSVTokenizer.maximumValueBytes {
            Console.error(
                "zeropii: \(positionName) \(position) is longer than \(CSVTokenizer.maximumValueBytes) bytes; its output line is left empty")
            try await keepPlace(of: position, in: &batch)
            return
        } else {
            batch.items.append((position, value))
            batch.values.append(value)
        }
        try await dispatchIfFull(&batch)
    }

    /// Gives a value that cannot be sent an empty output line, and fails the run.
    private func keepPlace(of position: Int, in batch: inout Batch) async throws {
        try await stopIfTheServerIsGone(before: position)
        failed = true
        summary.failedRows += 1
        batch.items.append((position, nil))
        try await dispatchIfFull(&batch)
    }

    /// Ends the run before `position` once ``UnansweredBatches`` takes the server to be
    /// gone: the batches in flight are answered (or fail) and written first, so every
    /// line before `position` has its output line.
    private func stopIfTheServerIsGone(before position: Int) async throws {
        guard unanswered.serverIsGone else { return }
        try await drain()
        throw unanswered.stop(server: connection?.displayURL ?? "?", unsent: "\(positionName)s \(position)")
    }

    /// Sends `batch` and starts a new one once it holds a request's worth of values.
    /// Empty and refused lines count towards its size too, so a long run of them is not
    /// held in memory.
    private func dispatchIfFull(_ batch: inout Batch) async throws {
        guard batch.values.count >= ZeroPiiSDK.maximumBatchSize || batch.items.count >= 4 * ZeroPiiSDK.maximumBatchSize else { return }
        try await dispatch(batch)
        batch = Batch()
    }

    private func dispatch(_ batch: Batch) async throws {
        guard let first = batch.items.first else { return }
        if unanswered.isSuspect {
            // The server may be gone: the batches in flight end first.
            try await drain()
        }
        try await stopIfTheServerIsGone(before: first.position)
        guard !batch.values.isEmpty else {
            // Nothing to send, but the batches still in flight come first.
            try await drain()
            try finish(batch, nil)
            return
        }
        if connection == nil { connection = try await connect() }
        guard let sdk = connection?.sdk else { return }
        let values = batch.values
        inFlight.append((batch, Task { await sdk.batchTokenize(values) }))
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

    private func drain() async throws {
        while !inFlight.isEmpty {
            let (batch, task) = inFlight.removeFirst()
            try finish(batch, await task.valueEndingWithItsWaiter)
        }
    }

    private func finish(_ batch: Batch, _ result: BatchTokenizeResult?) throws {
        // A batch that a signal cancelled is no failure to report: the run ends here.
        try checkInterruption()
        let tokens: [String]?
        if let result {
            unanswered.record(result, reason: NetworkFailureText.describe(result.errorMessage ?? ""))
            if result.isSuccess && result.results.count == batch.values.count {
                tokens = result.results.map(\.token)
                summary.values += result.results.count
                summary.created += result.results.filter(\.newlyCreated).count
                summary.existing += result.results.filter { !$0.newlyCreated }.count
            } else {
                let reason = NetworkFailureText.describe(result.errorMessage ?? "the server's answer did not match the request")
                let positions = batch.items.filter { $0.value != nil }.map(\.position)
                let first = positions.first ?? 0
                let last = positions.last ?? 0
                // The embedded server's vault cannot store tokens (a full disk): every
                // later batch would fail the same way, so the run stops with the cause, once.
                if let stop = connection?.embeddedVaultFailure(
                    status: result.httpStatusCode?.intValue, firstNotTokenized: "\(positionName) \(first)")
                {
                    throw stop
                }
                if let stop = connection?.refusalForTheRun(
                    status: result.httpStatusCode?.intValue, kind: result.errorKind, firstNotTokenized: "\(positionName) \(first)")
                {
                    throw stop
                }
                if let stop = unanswered.permanentStop(server: connection?.displayURL ?? "?", firstNotTokenized: "\(positionName) \(first)") {
                    throw stop
                }
                let which = first == last ? "\(positionName) \(first)" : "\(positionName)s \(first) to \(last)"
                let left = first == last ? "its output line is left empty" : "their output lines are left empty"
                Console.error("zeropii: \(which) could not be tokenized: \(reason) (\(connection?.displayURL ?? "?")); \(left)")
                failed = true
                summary.failedRows += positions.count
                tokens = nil
            }
        } else {
            tokens = []
        }
        var next = 0
        summary.rows += batch.items.count
        for item in batch.items {
            if item.value == nil {
                try output.write([UInt8(ascii: "\n")])
            } else if let tokens {
                try output.write(Array((tokens[next] + "\n").utf8))
                next += 1
            } else {
                try output.write([UInt8(ascii: "\n")])
            }
            lastWrittenLine = item.position
        }
    }
}
