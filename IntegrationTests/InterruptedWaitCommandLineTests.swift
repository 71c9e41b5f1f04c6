import Foundation
import Testing
import ZeroPiiMockServer
import ZeroPiiTestHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Signals while a run waits on something other than the server: a silent standard input
/// (a slow producer, a person who stopped typing) and another process's vault. The run
/// ends at once, and no file of its own is left behind.
@Suite(.skippedUnderThreadSanitizer)
struct InterruptedWaitCommandLineTests {
    /// Found from outside: SIGINT while `tokenize -` waited for more input was noticed
    /// only when the next line came.
    /// SIGHUP (a terminal or SSH session that went away) stops the run as SIGTERM does.
    @Test(arguments: [SIGINT, SIGHUP])
    func aSignalWhileStandardInputIsSilentEndsTheRunAtOnce(signal number: Int32) throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = Pipe()
        let (process, output, errors) = try CommandLineTool.start(["tokenize", "--quiet", "--data-dir", directory + "/data", "-"], input: input)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The pipe stays open, silent, after the first value.
        try input.fileHandleForWriting.write(contentsOf: Data("a@b.io\n".utf8))
        #expect(blockUntil(atMost: 60) { output.text.hasSuffix("\n") }, "the first token came back")
        kill(process.processIdentifier, number)
        let ended = blockUntil(atMost: 10) { !process.isRunning }
        #expect(ended, "the run went on waiting for input after SIGINT")
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 128 + number)
        #expect(blockUntil(atMost: 10) { errors.isEnded })
        let stderr = errors.text
        let name = number == SIGINT ? "SIGINT" : "SIGHUP"
        #expect(
            stderr.hasSuffix(
                "zeropii: interrupted by \(name): standard output holds the output up to line 1; run the same command again to finish (the vault gives the same tokens)\n"
            ), "\(stderr)")
    }

    /// A signal while the run waits for another process's vault ends it with one line,
    /// and the run's own file beside `--output` goes with it (the process ends at once,
    /// so nothing else would remove it).
    @Test func aSignalWhileWaitingForTheVaultLeavesNoFileOfTheRun() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        let holder = try TokenVault(path: directory + "/data/vault.db")
        defer { holder.close() }
        try Data("email\na@b.io\n".utf8).write(to: URL(fileURLWithPath: directory + "/in.csv"))
        let (process, _, errors) = try CommandLineTool.start([
            "tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", directory + "/in.csv", "--columns", "email", "--output",
            directory + "/out.csv",
        ])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(blockUntil(atMost: 60) { errors.text.contains("waiting for it") })
        kill(process.processIdentifier, SIGINT)
        #expect(blockUntil(atMost: 10) { !process.isRunning })
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(blockUntil(atMost: 10) { errors.isEnded })
        #expect(errors.text.hasSuffix("waiting for it\nzeropii: interrupted by SIGINT before anything was tokenized; no output file was changed\n"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["data", "in.csv"], "\(names)")
    }
}
