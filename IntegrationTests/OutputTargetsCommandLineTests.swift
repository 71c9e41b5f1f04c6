import Foundation
import Testing
import ZeroPiiTestHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `--output` and `--rejects` end up: two names for one file, links, the process's
/// own streams, files left by earlier runs, and a reader that goes away.
@Suite(.skippedUnderThreadSanitizer)
struct OutputTargetsCommandLineTests {
    static let input = Data("id,email\n1,a@b.io\n2,Smith, x@y.io\n3,c@d.io\n".utf8)

    static func tokenize(_ arguments: [String], directory: String) throws -> CommandLineTool.Finished {
        try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", directory + "/data"] + arguments)
    }

    /// Found from outside: `--output o.csv --rejects ./o.csv` (or `sub/../o.csv`) ran with
    /// exit 0 and the rejected rows in place of the output.
    @Test func outputAndRejectsNamingOneFileAreAUsageError() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.input.write(to: URL(fileURLWithPath: directory + "/in.csv"))
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.csv", withDestinationPath: directory + "/o.csv")
        for (output, rejects) in [("o.csv", "./o.csv"), ("sub/../o.csv", "o.csv"), ("link.csv", "o.csv")] {
            let run = try Self.tokenize(
                ["--csv", directory + "/in.csv", "--columns", "email", "--output", directory + "/" + output, "--rejects", directory + "/" + rejects],
                directory: directory)
            #expect(run.status == 2, "\(output) \(rejects)")
            #expect(run.errorOutput.hasPrefix("zeropii: --rejects and --output name the same file\n"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/o.csv"))
    }

    /// Found from outside: a link at --output was replaced by a file, the file it named
    /// left as it was; a link to /proc/self/fd/1 swallowed the output. A link is followed
    /// (the link stays, its target gets the rows), and a process stream is written as is.
    @Test func linksAreFollowedAndStreamsWrittenAsTheyAre() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.input.write(to: URL(fileURLWithPath: directory + "/in.csv"))
        try Data("OLD\n".utf8).write(to: URL(fileURLWithPath: directory + "/target.csv"))
        try FileManager.default.createSymbolicLink(atPath: directory + "/latest.csv", withDestinationPath: "target.csv")
        let linked = try Self.tokenize(
            ["--csv", directory + "/in.csv", "--columns", "email", "--output", directory + "/latest.csv"], directory: directory)
        #expect(linked.status == 1)  // the Smith row is left out
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/latest.csv") == "target.csv")
        let written = try String(contentsOfFile: directory + "/target.csv", encoding: .utf8)
        #expect(written.hasPrefix("id,email\n1,") && !written.contains("a@b.io"))

        try FileManager.default.createSymbolicLink(atPath: directory + "/mystdout", withDestinationPath: "/proc/self/fd/1")
        for output in [directory + "/mystdout", "/dev/stdout"] {
            let stream = try Self.tokenize(["--csv", directory + "/in.csv", "--columns", "email", "--output", output], directory: directory)
            #expect(stream.status == 1)
            #expect(stream.output == written, "\(output)")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/mystdout")
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
    }

    /// A finished run removes the `FILE.partial` an earlier stopped run left, and the own
    /// file of a run that SIGKILL ended (its process is gone), but not one of a running
    /// process.
    @Test func leftoversOfEarlierRunsAreRemoved() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("id,email\n1,a@b.io\n".utf8).write(to: URL(fileURLWithPath: directory + "/in.csv"))
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = ".out.csv.zeropii-\(ended.processIdentifier)-AbC123"
        let alive = ".out.csv.zeropii-\(getpid())-XyZ789"
        for name in [stale, alive, "out.csv.partial"] {
            try Data("old rows\n".utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
        }
        let run = try Self.tokenize(["--csv", directory + "/in.csv", "--columns", "email", "--output", directory + "/out.csv"], directory: directory)
        #expect(run.status == 0)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
        #expect(!names.contains(stale) && !names.contains("out.csv.partial"))
        #expect(names.contains(alive))
    }

    /// Found from outside: `| head` (exit 141) threw away the rows rejected so far.
    @Test func aClosedOutputKeepsTheRejectedRows() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var text = "id,email\n"
        for row in 0..<30_000 { text += row % 10 == 0 ? "\(row),Smith, x\(row)@y.io\n" : "\(row),p\(row)@example.com\n" }
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/in.csv"))
        let rejects = directory + "/r.csv"
        let process = Process()
        process.executableURL = CommandLineTool.executable
        process.arguments = [
            "tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", directory + "/in.csv", "--columns", "email", "--rejects", rejects,
        ]
        let output = Pipe()
        let errors = StreamedPipe()
        process.standardOutput = output
        process.standardError = errors.pipe
        try process.run()
        errors.startReading()
        // Read a little, then go away, as `head -c` does.
        _ = output.fileHandleForReading.readData(ofLength: 100)
        try output.fileHandleForReading.close()
        #expect(blockUntil(atMost: 120) { !process.isRunning })
        process.waitUntilExit()
        #expect(process.terminationStatus == 141)
        #expect(blockUntil(atMost: 10) { errors.isEnded })
        let kept = try String(contentsOfFile: rejects + ".partial", encoding: .utf8)
        #expect(kept.hasPrefix("zeropii_line,zeropii_reason,id,email\n2,"))
        #expect(errors.text.contains("zeropii: the output's reader went away; the "))
        #expect(!FileManager.default.fileExists(atPath: rejects))
    }

    /// Found from outside: a CSV from a slow pipe came out a full batch at a time, so a
    /// slow producer's rows never appeared; then, with --no-header (which reads rows ahead
    /// to learn the field count) or CR line breaks (a CR at the end of what arrived waited
    /// for the next byte), not before the end of the input. Each row goes out as it comes.
    @Test(arguments: [(false, "\n"), (true, "\n"), (false, "\r"), (true, "\r")])
    func aCSVFromASlowPipeComesOutAsItComes(noHeader: Bool, lineBreak: String) throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = Pipe()
        let columns = noHeader ? ["--no-header", "--columns", "2"] : ["--columns", "email"]
        let (process, output, errors) = try CommandLineTool.start(
            ["tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", "-"] + columns, input: input)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        func rowsOut() -> Int { output.text.split(separator: Character(lineBreak), omittingEmptySubsequences: true).count }
        let first = (noHeader ? "" : "id,email" + lineBreak) + "1,a@b.io" + lineBreak + "2,c@d.io" + lineBreak
        try input.fileHandleForWriting.write(contentsOf: Data(first.utf8))
        let expected = noHeader ? 2 : 3
        #expect(blockUntil(atMost: 60) { rowsOut() == expected }, "\(output.text.debugDescription) \(errors.text)")
        try input.fileHandleForWriting.write(contentsOf: Data(("3,e@f.io" + lineBreak).utf8))
        #expect(blockUntil(atMost: 60) { rowsOut() == expected + 1 }, "\(output.text.debugDescription)")
        try input.fileHandleForWriting.close()
        #expect(blockUntil(atMost: 60) { !process.isRunning })
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errors.text)")
        #expect(!output.text.contains("@b.io") && !output.text.contains("\n\r") && !output.text.contains("\r\n"))
    }
}
