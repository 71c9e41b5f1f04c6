import Foundation
import Testing
import ZeroPiiTestHelpers

/// Runs the `zeropii` executable built next to the test bundle.
struct CommandLineTool {
    struct Finished {
        let status: Int32
        let output: String
        let errorOutput: String
        /// Standard output as bytes, for byte-exact comparisons.
        let outputBytes: Data
    }

    static var executable: URL {
        // Every suite that runs the binary carries `.skippedUnderThreadSanitizer`: under
        // ThreadSanitizer each child is an instrumented binary ten times slower, and the
        // suites check exit statuses, pipes and files, not this process's threads.
        if isUnderThreadSanitizer {
            Issue.record("a suite that runs the zeropii binary must carry .skippedUnderThreadSanitizer")
        }
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("zeropii")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundleDirectory.appendingPathComponent("zeropii")
    }

    /// Starts the tool with its standard output and error read as they come (standard
    /// input is the given pipe, or nothing), in `directory` (this process's when nil).
    static func start(
        _ arguments: [String], input: Pipe? = nil, directory: String? = nil
    ) throws -> (process: Process, output: StreamedPipe, errors: StreamedPipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = StreamedPipe()
        let errors = StreamedPipe()
        process.standardInput = input ?? FileHandle.nullDevice
        process.standardOutput = output.pipe
        process.standardError = errors.pipe
        try process.run()
        output.startReading()
        errors.startReading()
        return (process, output, errors)
    }

    /// Runs to completion with `input` on standard input (none when nil), `environment`
    /// added to this process's, in `directory` (this process's when nil).
    static func run(
        _ arguments: [String], input: Data? = nil, environment: [String: String] = [:], directory: String? = nil
    ) throws -> Finished {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        if let input {
            // Written from another thread, so a large input cannot block on a full pipe
            // while the tool waits for its output to be read.
            Thread.detachNewThread {
                try? inputPipe.fileHandleForWriting.write(contentsOf: input)
                try? inputPipe.fileHandleForWriting.close()
            }
        }
        // Standard error is read on another thread while this one reads standard output,
        // so neither pipe can fill up and stall the tool.
        let errorOutput = Collected()
        Thread.detachNewThread { errorOutput.finish(errors.fileHandleForReading.readDataToEndOfFile()) }
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errorOutput.wait()
        process.waitUntilExit()
        return Finished(
            status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
            errorOutput: String(decoding: errData, as: UTF8.self),
            outputBytes: outData
        )
    }
}

/// Bytes read on another thread, handed over once.
final class Collected: @unchecked Sendable {
    // Sendable: `data` is guarded by `condition`.
    private let condition = NSCondition()
    private var data: Data?

    func finish(_ bytes: Data) {
        condition.lock()
        data = bytes
        condition.signal()
        condition.unlock()
    }

    func wait() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while data == nil { condition.wait() }
        return data ?? Data()
    }
}

/// A pipe read on another thread as the tool writes it, so a test can wait for a line
/// with a deadline (a blocking read would hang the suite if the line never came).
final class StreamedPipe: @unchecked Sendable {
    // Sendable: `received` and `ended` are guarded by `lock`.
    let pipe = Pipe()
    private let lock = NSLock()
    private var received = Data()
    private var ended = false

    /// Starts reading; call after the process that writes the pipe has started.
    func startReading() {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                lock.lock()
                if chunk.isEmpty { ended = true } else { received.append(chunk) }
                lock.unlock()
                if chunk.isEmpty { return }
            }
        }
    }

    /// What has come so far, as text.
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: received, as: UTF8.self)
    }

    /// True once every writer has closed the pipe.
    var isEnded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return ended
    }
}

/// The hint `zeropii tokenize --csv` gives after a column it cannot find in a header of
/// `count` cells, none of which looks like data (the cells themselves are never shown).
enum CSVColumnsHint {
    static func cells(_ count: Int) -> String {
        "the first line has \(count) \(count == 1 ? "cell" : "cells") (not listed, since it may be data): give --columns the names it has, as 'head -1 FILE' shows them, or --no-header with --columns by position (1,3)"
    }
}

extension Process {
    /// Waits for the process to end, for at most `seconds`; past that it is killed and an
    /// issue recorded. A child that ignores its SIGTERM then fails its test instead of
    /// holding a thread of the test pool for ever (a `zeropii serve` that lost its
    /// SIGTERM once stalled a whole run that way).
    func waitForExit(atMost seconds: TimeInterval = 120, _ what: String = "the child process") {
        if !blockUntil(atMost: seconds, { !self.isRunning }) {
            Issue.record("\(what) did not end within \(Int(seconds)) s; killed")
            kill(processIdentifier, SIGKILL)
        }
        waitUntilExit()
    }
}
