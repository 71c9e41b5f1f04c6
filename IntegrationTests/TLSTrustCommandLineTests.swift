#if os(Linux)
import Foundation
import Testing
import ZeroPiiMockServer
import ZeroPiiTestHelpers

/// `zeropii tokenize --ca-file` and `--pinned-key` against the mock server behind TLS with
/// a certificate authority of its own (Python's `ssl`, `Scripts/tls-test-server.py`,
/// passing every request on): the token endpoint and the API both go through that trust.
@Suite(.skippedUnderThreadSanitizer, .enabled(if: TLSTestServer.canRun, "python3 with the cryptography package is not available"))
struct TLSTrustCommandLineTests {
    /// Writes a CSV of an `email` column with `rows` addresses: three batches for 2,500.
    private static func writeEmails(_ rows: Int, toCSV path: String) throws {
        try Data((["email"] + (1...rows).map { "user\($0)@example.com" }).joined(separator: "\n").utf8 + [UInt8(ascii: "\n")])
            .write(to: URL(fileURLWithPath: path))
    }

    @Test func aServerOfItsOwnAuthorityIsReachedWithItsCAFileAndPinnedKey() throws {
        var configuration = MockServerConfiguration()
        configuration.clients = ["tls-test": "tls-secret"]
        let server = try MockTokenizationServer(configuration: configuration)
        defer { server.stop() }
        let tls = try TLSTestServer(forwardingTo: Int(server.port))
        defer { tls.stop() }
        let environment = ["ZEROPII_CLIENT_SECRET": "tls-secret"]
        func tokenize(through base: URL, _ options: [String]) throws -> CommandLineTool.Finished {
            let server = ["--api-url", base.absoluteString, "--token-url", base.absoluteString + "oauth/token", "--client-id", "tls-test"]
            return try CommandLineTool.run(
                ["tokenize", "--quiet"] + server + options + ["alice@example.com", "+1 415 555 0100"], environment: environment)
        }
        let wrongPin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()

        // The tokens straight from the server, over http on this machine.
        let direct = try tokenize(through: server.baseURL, [])
        #expect(direct.status == 0, "\(direct.errorOutput)")
        #expect(direct.output.split(separator: "\n").count == 2)

        // Without its CA the server is not trusted, at the token endpoint already: exit 1,
        // at once (a certificate that does not verify is not retried).
        let started = Date()
        let untrusted = try tokenize(through: tls.baseURL, [])
        #expect(untrusted.status == 1)
        #expect(
            untrusted.errorOutput.contains(
                "could not reach the token endpoint \(tls.baseURL.absoluteString)oauth/token: "
                    + "the server's TLS certificate could not be verified (expired, for another name, or from an authority not "
                    + "trusted here; for an authority of your own, see --ca-file)"),
            "\(untrusted.errorOutput)")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(untrusted.output.isEmpty)

        // With it, the same tokens through TLS; a wrong pin beside the right one does no harm.
        for options in [
            ["--ca-file", tls.certificateAuthorityFile],
            ["--ca-file", tls.certificateAuthorityFile, "--pinned-key", wrongPin, "--pinned-key", tls.pin],
        ] {
            let trusted = try tokenize(through: tls.baseURL, options)
            #expect(trusted.status == 0, "\(options): \(trusted.errorOutput)")
            #expect(trusted.output == direct.output, "\(options)")
        }

        // Only a wrong pin: refused, and said so.
        let pinned = try tokenize(through: tls.baseURL, ["--ca-file", tls.certificateAuthorityFile, "--pinned-key", wrongPin])
        #expect(pinned.status == 1)
        #expect(pinned.errorOutput.contains("the server's public key is not the pinned one (check --pinned-key)"), "\(pinned.errorOutput)")
    }

    /// Found from outside: a certificate that does not verify took three batches to stop
    /// a run, as a dead server does; sending again cannot change it, so the first stops it.
    @Test func aCertificateThatDoesNotVerifyStopsTheRunAtTheFirstBatch() throws {
        let tls = try TLSTestServer()
        defer { tls.stop() }
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(((1...10_000).map { "user\($0)@example.com" }.joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: directory + "/values.txt"))
        for concurrency in ["1", "4"] {
            let started = Date()
            let run = try CommandLineTool.run(
                ["tokenize", "--values-from", directory + "/values.txt", "--api-url", tls.baseURL.absoluteString, "--concurrency", concurrency],
                environment: ["ZEROPII_ACCESS_TOKEN": "t"])
            #expect(run.status == 1)
            #expect(
                run.errorOutput.contains(
                    "zeropii: the server at \(tls.baseURL.absoluteString) cannot be reached this way (the network request failed: "
                        + "the server's TLS certificate could not be verified (expired, for another name, or from an authority not "
                        + "trusted here; for an authority of your own, see --ca-file)). "
                        + "The run stopped: line 1 and everything after it were not tokenized"), "\(run.errorOutput)")
            #expect(!run.errorOutput.contains("could not be tokenized"), "\(run.errorOutput)")
            #expect(Date().timeIntervalSince(started) < 20)
        }
    }

    /// Found from outside: with the whole input in flight at once (three batches, four at a
    /// time), a key that is not the pinned one failed each batch with a line of its own and
    /// replaced the output file with the header alone; the run stops at the first answer,
    /// with one line, and the output file keeps what it held.
    @Test func aRunWhoseWholeInputIsInFlightStopsAtTheFirstFailureThatCannotChange() throws {
        let tls = try TLSTestServer()
        defer { tls.stop() }
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeEmails(2_500, toCSV: directory + "/in.csv")
        try Data("keep\n".utf8).write(to: URL(fileURLWithPath: directory + "/out.csv"))
        let wrongPin = "sha256//" + Data(repeating: 0, count: 32).base64EncodedString()
        let run = try CommandLineTool.run(
            [
                "tokenize", "--csv", directory + "/in.csv", "--columns", "email", "--output", directory + "/out.csv", "--api-url",
                tls.baseURL.absoluteString, "--ca-file", tls.certificateAuthorityFile, "--pinned-key", wrongPin,
            ],
            environment: ["ZEROPII_ACCESS_TOKEN": "t"])
        #expect(run.status == 1)
        #expect(
            run.errorOutput.contains(
                "zeropii: the server at \(tls.baseURL.absoluteString) cannot be reached this way (the network request failed: "
                    + "the server's public key is not the pinned one (check --pinned-key)). "
                    + "The run stopped: line 2 and everything after it were not tokenized"), "\(run.errorOutput)")
        #expect(!run.errorOutput.contains("could not be tokenized"), "\(run.errorOutput)")
        #expect(try String(contentsOfFile: directory + "/out.csv", encoding: .utf8) == "keep\n")
    }

    /// Found from outside: a signal while the requests were failing their TLS handshakes
    /// crashed the process as it exited (SIGSEGV in libcurl's thread, in a lock that
    /// OpenSSL's exit handler had freed), in one run in seven to twelve. Each run gets
    /// SIGTERM at another moment of its first 150 ms; none may end by another signal.
    @Test func aSignalWhileHandshakesFailEndsTheRunWithoutACrash() async throws {
        let tls = try TLSTestServer()
        defer { tls.stop() }
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeEmails(2_500, toCSV: directory + "/in.csv")
        let arguments = [
            "tokenize", "--csv", directory + "/in.csv", "--columns", "email", "--output", directory + "/out.csv", "--api-url",
            tls.baseURL.absoluteString, "--concurrency", "8",
        ]
        // How each run ended: its exit status, or minus the signal that ended it. The runs
        // are waited for on a thread of their own, not one of the cooperative pool's two,
        // which the suites beside this one need for their time limits.
        let endings: [Int] = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var random = SplitMix64(seed: 7)
                var endings: [Int] = []
                for _ in 0..<40 {
                    let process = Process()
                    process.executableURL = CommandLineTool.executable
                    process.arguments = arguments
                    process.environment = ProcessInfo.processInfo.environment.merging(["ZEROPII_ACCESS_TOKEN": "t"]) { $1 }
                    process.standardOutput = FileHandle.nullDevice
                    process.standardError = FileHandle.nullDevice
                    guard (try? process.run()) != nil else { break }
                    // The moment of the signal is what varies from run to run, not a wait for an event.
                    usleep(UInt32(random.next() % 150_000))
                    kill(process.processIdentifier, SIGTERM)
                    process.waitUntilExit()
                    endings.append(process.terminationReason == .exit ? Int(process.terminationStatus) : -Int(process.terminationStatus))
                }
                continuation.resume(returning: endings)
            }
        }
        #expect(endings.count == 40)
        // Ended by the run (1: it stopped; 143: the signal), or by the signal itself when it
        // came before the tool's handlers were in place; any other signal is a crash.
        for (run, ending) in endings.enumerated() {
            #expect([1, 128 + Int(SIGTERM), -Int(SIGTERM)].contains(ending), "run \(run) ended with \(ending)")
        }
        // Most runs should be ended by the tool, not by the signal's default: the test's point.
        #expect(endings.filter { $0 > 0 }.count >= 20, "\(endings)")
    }

    @Test func trustOptionsThatCannotBeUsedAreUsageErrors() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let api = ["--api-url", "https://tokens.example.test/", "--access-token", "t"]
        let pin = "sha256//" + Data(repeating: 1, count: 32).base64EncodedString()
        let cases: [(arguments: [String], message: String)] = [
            (["--ca-file", directory + "/missing.pem"], "--ca-file '\(directory)/missing.pem' does not exist"),
            (["--ca-file", directory], "--ca-file '\(directory)' is a folder, not a file"),
            (["--pinned-key", "sha256//short"], "--pinned-key 'sha256//short' is not sha256// followed by the Base64 of a 32-byte SHA-256 digest"),
            (["--pinned-key", Data(repeating: 1, count: 32).base64EncodedString()], "is not sha256// followed by"),
            // Found from outside: a key whose unused padding bits differ decodes to the same
            // digest but never matches, since libcurl compares the text.
            (
                ["--pinned-key", "sha256//" + String(Data(repeating: 1, count: 32).base64EncodedString().dropLast(2)) + "F="],
                "is not sha256// followed by"
            ),
            // Found from outside: a line break in a key made the message two lines.
            (["--pinned-key", "sha256//AAAA\nzeropii: forged line"], "--pinned-key 'sha256//AAAA?zeropii: forged line' is not sha256//"),
            // Found from outside: a FIFO was opened by every request and blocked it for the
            // call's 120 s; text without a certificate, an empty file and DER failed per value.
            (
                ["--ca-file", directory + "/fifo"],
                "--ca-file '\(directory)/fifo' is not a regular file (a pipe or a device); libcurl reads it again for every connection"
            ),
            (["--ca-file", directory + "/garbage.pem"], "--ca-file '\(directory)/garbage.pem' holds no PEM certificate"),
            (["--ca-file", directory + "/empty.pem"], "--ca-file '\(directory)/empty.pem' holds no PEM certificate"),
            // Found from outside: a file whose certificate block was corrupt passed, and every
            // value then failed; OpenSSL refuses the whole file for one bad block.
            (
                ["--ca-file", directory + "/corrupt.pem"],
                "--ca-file '\(directory)/corrupt.pem' is refused whole by OpenSSL, so every request would fail (curl error 77): the block that begins on line 3 is not Base64"
            ),
            (["--ca-file", directory + "/huge.pem"], "--ca-file '\(directory)/huge.pem' is over 64 MiB"),
        ]
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: directory + "/garbage.pem"))
        try Data().write(to: URL(fileURLWithPath: directory + "/empty.pem"))
        try Data("# an authority\n\n-----BEGIN CERTIFICATE-----\nMIIB!!\n-----END CERTIFICATE-----\n".utf8)
            .write(to: URL(fileURLWithPath: directory + "/corrupt.pem"))
        #expect(FileManager.default.createFile(atPath: directory + "/huge.pem", contents: nil))
        let huge = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/huge.pem"))
        try huge.truncate(atOffset: 64 << 20 + 1)
        try huge.close()
        for (arguments, message) in cases {
            let run = try CommandLineTool.run(["tokenize"] + api + arguments + ["a@x.io"])
            #expect(run.status == 2, "\(arguments)")
            #expect(run.errorOutput.contains(message), "\(arguments): \(run.errorOutput)")
            #expect(run.output.isEmpty)
        }
        // Found from outside: over plain http they did nothing, silently.
        let plain = try CommandLineTool.run(["tokenize", "--api-url", "http://127.0.0.1:1/", "--access-token", "t", "--pinned-key", pin, "a@x.io"])
        #expect(plain.status == 2)
        #expect(plain.errorOutput.contains("--ca-file and --pinned-key are for https; --api-url is plain http"), "\(plain.errorOutput)")
        // They are for a server of one's own: the embedded one has no TLS.
        let embedded = try CommandLineTool.run(["tokenize", "--ca-file", "/etc/hostname", "a@x.io"])
        #expect(embedded.status == 2)
        #expect(embedded.errorOutput.contains("--ca-file and --pinned-key go with --api-url"), "\(embedded.errorOutput)")
    }
}
#endif
