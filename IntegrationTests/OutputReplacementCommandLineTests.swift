import Foundation
import Testing
import ZeroPiiTestHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The output file under hostile and busy conditions: links and stale files where the
/// partial file goes, runs that stop early, two runs on one file, and signals while the
/// run waits.
@Suite(.skippedUnderThreadSanitizer)
struct OutputReplacementCommandLineTests {
    static func tokenize(
        _ arguments: [String], directory: String, input: Data? = nil, environment: [String: String] = [:]
    ) throws
        -> CommandLineTool.Finished
    {
        try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", directory + "/data"] + arguments, input: input, environment: environment)
    }

    @Test func aLinkOrAStaleFileAtThePartialNameIsNeverWrittenThrough() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/q.csv"
        let victim = directory + "/victim.txt"
        try Data("VICTIM\n".utf8).write(to: URL(fileURLWithPath: victim))
        try Data("OLD\n".utf8).write(to: URL(fileURLWithPath: output))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: output)
        try FileManager.default.createSymbolicLink(atPath: output + ".partial", withDestinationPath: victim)
        let run = try Self.tokenize(
            ["--csv", "-", "--columns", "email", "--output", output], directory: directory, input: Data("email\na@x.io\n".utf8))
        #expect(run.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == Data("VICTIM\n".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: output)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(attributes[.posixPermissions] as? Int == 0o644, "the old file's mode, not the stale partial's")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("email\n"))
        // No file of the run is left beside it.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains("zeropii-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func strictStopsEarlyAndKeepsTheOldFile() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/m.csv"
        try Data("OLD\n".utf8).write(to: URL(fileURLWithPath: output))
        let run = try Self.tokenize(
            ["--strict", "--csv", "-", "--columns", "email", "--output", output], directory: directory,
            input: Data("email\na@x.io\n\"bad\"x\nb@x.io\n".utf8))
        #expect(run.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("OLD\n".utf8))
        let partial = try String(contentsOfFile: output + ".partial", encoding: .utf8)
        #expect(partial.split(separator: "\n").count == 2 && !partial.contains("a@x.io"))
        #expect(
            run.errorOutput.contains(
                "zeropii: --strict stopped the run at line 3; nothing after it was read; '\(output)' keeps its old contents and the output up to line 2 is in '\(output).partial'\n"
            ))
    }

    /// Found from outside: a run that stopped early said a new output file "keeps its old
    /// contents" when there was none; it says the file was not made.
    @Test func strictStopsEarlyAndMakesNoNewFile() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/new.csv"
        let run = try Self.tokenize(
            ["--strict", "--csv", "-", "--columns", "email", "--output", output], directory: directory,
            input: Data("email\na@x.io\n\"bad\"x\nb@x.io\n".utf8))
        #expect(run.status == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(FileManager.default.fileExists(atPath: output + ".partial"))
        #expect(
            run.errorOutput.contains(
                "zeropii: --strict stopped the run at line 3; nothing after it was read; '\(output)' was not made and the output up to line 2 is in '\(output).partial'\n"
            ), "\(run.errorOutput)")
    }

    @Test func twoRunsOnOneOutputLeaveOneWholeResult() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/par.csv"
        let inputs = (0..<2).map { run in
            Data((["id,email"] + (0..<2_000).map { "\($0),run\(run)-\($0)@example.com" }).joined(separator: "\n").utf8 + [0x0A])
        }
        for (index, input) in inputs.enumerated() { try input.write(to: URL(fileURLWithPath: directory + "/in\(index).csv")) }
        let runs = (0..<2).map { index -> Process in
            let process = Process()
            process.executableURL = CommandLineTool.executable
            process.arguments = [
                "tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", directory + "/in\(index).csv", "--columns", "email",
                "--output", output,
            ]
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            return process
        }
        for process in runs { try process.run() }
        for process in runs { process.waitUntilExit() }
        #expect(runs.allSatisfy { $0.terminationStatus == 0 })
        // Each run alone, for the whole result it gives (the vault gives the same tokens).
        let alone = try (0..<2).map { index in
            try CommandLineTool.run(
                ["tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", directory + "/in\(index).csv", "--columns", "email"]
            ).outputBytes
        }
        let written = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(alone.contains(written), "the file is one run's whole output, not a mix")
    }

    /// A server that takes the connection and never answers: the first signal ends the
    /// wait at once instead of at the request's time limit.
    @Test func aSignalEndsAWaitForASilentServerAtOnce() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        #expect(listening)
        let port = UInt16(bigEndian: address.sin_port)
        let process = Process()
        process.executableURL = CommandLineTool.executable
        process.arguments = ["tokenize", "--quiet", "--api-url", "http://127.0.0.1:\(port)/", "a@x.io"]
        process.environment = ProcessInfo.processInfo.environment.merging(["ZEROPII_ACCESS_TOKEN": "t"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Once the request is on its way (the connection sits in the listener's backlog).
        Thread.sleep(forTimeInterval: 1)
        let signalled = Date()
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(signalled) < 10, "the run ended at once, not at the time limit")
        #expect(process.terminationStatus == 130)
        let lines = stderr.split(separator: "\n").map(String.init)
        #expect(lines.last?.hasPrefix("zeropii: interrupted by SIGINT") == true, "\(lines)")
        #expect(!stderr.contains("could not be tokenized"), "a cancelled batch is no failure to report: \(stderr)")
    }

    /// Before anything is tokenized (here: an output FIFO nobody reads, which blocks the
    /// open), a signal ends the run at once with one line.
    @Test func aSignalBeforeTokenizingEndsTheRunWithOneLine() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = Process()
        process.executableURL = CommandLineTool.executable
        process.arguments = ["tokenize", "--quiet", "--data-dir", directory + "/data", "--output", fifo, "a@x.io"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1)
        kill(process.processIdentifier, SIGTERM)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        #expect(stderr == "zeropii: interrupted by SIGTERM before anything was tokenized; no output file was changed\n")
    }
}
