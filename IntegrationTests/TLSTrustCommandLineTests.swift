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
                    + "the server's TLS certificate is not trusted"), "\(untrusted.errorOutput)")
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
        #expect(pinned.errorOutput.contains("the server's public key is not the pinned one"), "\(pinned.errorOutput)")
    }

    @Test func trustOptionsThatCannotBeUsedAreUsageErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zeropii-tls-usage-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let api = ["--api-url", "https://tokens.example.test/", "--access-token", "t"]
        let cases: [(arguments: [String], message: String)] = [
            (["--ca-file", directory + "/missing.pem"], "--ca-file '\(directory)/missing.pem' is not a file this user can read"),
            (["--ca-file", directory], "--ca-file '\(directory)' is not a file this user can read"),
            (["--pinned-key", "sha256//short"], "--pinned-key 'sha256//short' is not sha256// followed by the Base64 of a 32-byte SHA-256 digest"),
            (["--pinned-key", Data(repeating: 1, count: 32).base64EncodedString()], "is not sha256// followed by"),
        ]
        for (arguments, message) in cases {
            let run = try CommandLineTool.run(["tokenize"] + api + arguments + ["a@x.io"])
            #expect(run.status == 2, "\(arguments)")
            #expect(run.errorOutput.contains(message), "\(arguments): \(run.errorOutput)")
            #expect(run.output.isEmpty)
        }
        // They are for a server of one's own: the embedded one has no TLS.
        let embedded = try CommandLineTool.run(["tokenize", "--ca-file", "/etc/hostname", "a@x.io"])
        #expect(embedded.status == 2)
        #expect(embedded.errorOutput.contains("--ca-file and --pinned-key go with --api-url"), "\(embedded.errorOutput)")
    }
}
#endif
