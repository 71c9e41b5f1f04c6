import Foundation
import Testing
import ZeroPiiTestHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output file is replaced only by a run that finished: SIGINT or SIGTERM during a
/// real run leaves the old file byte for byte, the rows so far in `FILE.partial`, one
/// line that says so, and exit status 128 + the signal.
@Suite(.skippedUnderThreadSanitizer)
struct InterruptedRunCommandLineTests {
    static let previous = Data("PREVIOUS CONTENTS\n".utf8)

    /// A CSV of `rows` distinct emails.
    static func csv(rows: Int) -> Data {
        var text = "id,email\n"
        for row in 0..<rows { text += "\(row),person\(row)@example.com\n" }
        return Data(text.utf8)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalKeepsTheOldOutputAndThePartialRows(signal number: Int32) throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/in.csv"
        let output = directory + "/out.csv"
        let partial = output + ".partial"
        try Self.csv(rows: 300_000).write(to: URL(fileURLWithPath: input))
        try Self.previous.write(to: URL(fileURLWithPath: output))

        let process = Process()
        process.executableURL = CommandLineTool.executable
        process.arguments = [
            "tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", input, "--columns", "email", "--output", output,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Once the first rows are out (the output is written a megabyte at a time).
        // The run's own file beside the output (`.out.csv.zeropii-XXXXXX`).
        func writtenSoFar() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.filter { $0.hasPrefix(".out.csv.zeropii-") }.compactMap {
                try? FileManager.default.attributesOfItem(atPath: directory + "/" + $0)[.size] as? Int
            }.max() ?? 0
        }
        let started = blockUntil(atMost: 300) { writtenSoFar() > 0 || !process.isRunning }
        #expect(started && process.isRunning, "the run ended before it could be interrupted")
        kill(process.processIdentifier, number)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + number)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Self.previous, "the old output is kept byte for byte")
        let rows = try String(contentsOfFile: partial, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.first == "id,email")
        #expect(rows.count > 2 && rows.last == "", "whole rows only")
        #expect(!rows.contains { $0.contains("@example.com") }, "no value in clear")
        let lines = stderr.split(separator: "\n").map(String.init)
        let name = number == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(lines.count == 2, "\(lines)")  // the new vault's line, then this one
        #expect(
            lines.last?.hasPrefix(
                "zeropii: interrupted by \(name): '\(output)' keeps its old contents and the output up to line ") == true,
            "\(lines)")
        #expect(lines.last?.contains(" is in '\(partial)'; ") == true, "\(lines)")
        #expect(lines.last?.hasSuffix("; run the same command again to finish (the vault gives the same tokens)") == true)
    }

    @Test func aFinishedRunReplacesTheFileAndLeavesNoPartialFile() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/out.csv"
        try Self.previous.write(to: URL(fileURLWithPath: output))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: output)
        let run = try CommandLineTool.run(
            ["tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", "-", "--columns", "email", "--output", output],
            input: Self.csv(rows: 10))
        #expect(run.status == 0)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.hasPrefix("id,email\n0,") && written.split(separator: "\n").count == 11 && !written.contains("@example.com"))
        #expect(!FileManager.default.fileExists(atPath: output + ".partial"))
        // The replacement keeps the old file's permissions.
        let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }
}
