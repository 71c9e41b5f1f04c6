import Foundation
import Testing
import ZeroPiiTestHelpers

/// What an outside review of the libcurl transport found through the binary, kept as
/// tests: the embedded server is never reached through a proxy, a demo whose calls
/// fail says so in words and exits 1, and closed standard descriptors are not reused.
@Suite(.skippedUnderThreadSanitizer)
struct OutsideReviewCommandLineTests {
    /// A proxy in the environment that would refuse (or log) everything: the embedded
    /// server on 127.0.0.1 is this machine's, so its requests (and access token) never
    /// go through a proxy.
    @Test func theEmbeddedServerIsNeverReachedThroughAProxy() throws {
        let directory = NSTemporaryDirectory() + "zeropii-proxy-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let proxy = ["http_proxy": "http://127.0.0.1:1", "ALL_PROXY": "http://127.0.0.1:1", "all_proxy": "http://127.0.0.1:1"]
        let tokenized = try CommandLineTool.run(["tokenize", "--data-dir", directory + "/data", "alice@example.com"], environment: proxy)
        #expect(tokenized.status == 0, "\(tokenized.errorOutput)")
        #expect(!tokenized.output.isEmpty && !tokenized.output.contains("alice"))
        let demo = try CommandLineTool.run(["demo", "--data-dir", directory + "/demo"], environment: proxy)
        #expect(demo.status == 0, "\(demo.errorOutput)")
        #expect(!demo.output.contains("failed"))
    }

    /// Output closed at start (`>&-`): the tokens cannot be written, and the run must
    /// say so and fail, not write them into whatever the runtime opened next.
    @Test func aClosedStandardOutputFailsTheRun() throws {
        let directory = NSTemporaryDirectory() + "zeropii-closed-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", #""$0" tokenize --data-dir "$1" alice@example.com >&-"#, CommandLineTool.executable.path, directory + "/data"]
        let errors = Pipe()
        shell.standardError = errors
        shell.standardInput = FileHandle.nullDevice
        try shell.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 1, "\(message)")
        #expect(message.contains("standard output"), "\(message)")
        #expect(!message.contains("alice"))
    }
}
