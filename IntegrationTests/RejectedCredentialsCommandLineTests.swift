import Foundation
import Testing
import ZeroPiiMockServer
import ZeroPiiSDK
import ZeroPiiTestHelpers

/// An access token the API refuses stops the run at the first batch with one line that
/// says where the token came from, instead of one error per batch.
@Suite(.skippedUnderThreadSanitizer)
struct RejectedCredentialsCommandLineTests {
    static let commandLineTokenWarning =
        "zeropii: warning: --access-token shows the token to anyone who can list processes; use ZEROPII_ACCESS_TOKEN instead"

    @Test func aRefusedStaticTokenStopsTheRunWithOneLineNamingItsSource() throws {
        let server = try MockTokenizationServer(configuration: MockServerConfiguration())
        defer { server.stop() }
        let api = server.baseURL.absoluteString
        // 2,500 rows: three batches, each of which would fail the same way.
        let csv = Data((["email"] + (0..<2500).map { "person\($0)@example.com" }).joined(separator: "\n").utf8)
        let cases: [(arguments: [String], environment: [String: String], source: String)] = [
            (["--access-token", "bogus-token-value"], [:], "the access token given with --access-token"),
            ([], ["ZEROPII_ACCESS_TOKEN": "bogus-token-value"], "the access token in ZEROPII_ACCESS_TOKEN"),
        ]
        for (arguments, environment, source) in cases {
            let run = try CommandLineTool.run(
                ["tokenize", "--quiet", "--api-url", api] + arguments + ["--csv", "-", "--columns", "email"], input: csv,
                environment: environment)
            #expect(run.status == 1, "\(source)")
            var lines = run.errorOutput.split(separator: "\n").map(String.init)
            if arguments.contains("--access-token") {
                // A token on the command line shows in `ps`: said first, whatever happens next.
                #expect(lines.first == Self.commandLineTokenWarning)
                lines.removeFirst()
            }
            #expect(lines.count == 1, "\(source): \(run.errorOutput)")
            #expect(lines.first?.hasPrefix("zeropii: the API \(api) rejected (HTTP 401) \(source); check that it is current") == true)
            #expect(lines.first?.hasSuffix("The run stopped: line 2 and everything after it were not tokenized") == true)
            #expect(!run.errorOutput.contains("bogus-token-value") && !run.output.contains("person"))
        }
        // Tokens from another server's token endpoint: issued, then refused by the API.
        var issuing = MockServerConfiguration()
        issuing.clients = ["cli-test": "cli-secret"]
        let tokenServer = try MockTokenizationServer(configuration: issuing)
        defer { tokenServer.stop() }
        let endpoint = tokenServer.baseURL.absoluteString + "oauth/token"
        let fromEndpoint = try CommandLineTool.run(
            ["tokenize", "--quiet", "--api-url", api, "--token-url", endpoint, "--client-id", "cli-test", "--csv", "-", "--columns", "email"],
            input: csv, environment: ["ZEROPII_CLIENT_SECRET": "cli-secret"])
        #expect(fromEndpoint.status == 1)
        #expect(
            fromEndpoint.errorOutput
                == "zeropii: the API \(api) rejected (HTTP 401) the access tokens from the token endpoint \(endpoint); "
                + "check that --client-id's client may use this API. The run stopped: line 2 and everything after it were not tokenized\n")

        // Values given as arguments stop the same way, counted by value.
        let values = try CommandLineTool.run(["tokenize", "--api-url", api, "--access-token", "bogus-token-value", "a@x.io", "b@x.io"])
        #expect(values.status == 1)
        #expect(values.errorOutput.contains("The run stopped: value 1 and everything after it were not tokenized"))
    }

    /// Found from outside: answers that refuse the run's setup rather than its values (a
    /// wire profile the server does not take, a request it cannot decrypt) failed batch by
    /// batch to the end of a 50,000-line input.
    @Test func aRefusedSetupStopsTheRunAtTheFirstBatch() throws {
        // Ten batches: four in flight at once (the default --concurrency), then the stop. From
        // a file: a tool that stops early leaves a pipe's writer to SIGPIPE.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zeropii-setup-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let csv = directory + "/people.csv"
        try Data((["email"] + (0..<10_000).map { "person\($0)@example.com" }).joined(separator: "\n").utf8)
            .write(to: URL(fileURLWithPath: csv))
        let profiles = "v1, clevertap, plaintext"
        let cases: [(accepts: ZeroPiiWireProfile, wire: String, what: String)] = [
            (.plaintext, "v1", "could not decrypt the request (HTTP 419); check that --wire v1 is what it speaks (\(profiles))"),
            (.protocolV1, "plaintext", "does not accept --wire plaintext (HTTP 400); give the --wire it speaks (\(profiles))"),
        ]
        for (accepts, wire, what) in cases {
            var configuration = MockServerConfiguration()
            configuration.allowAnyToken = true
            configuration.acceptedWireProfiles = [accepts]
            let server = try MockTokenizationServer(configuration: configuration)
            defer { server.stop() }
            let api = server.baseURL.absoluteString
            let run = try CommandLineTool.run(
                ["tokenize", "--quiet", "--api-url", api, "--wire", wire, "--csv", csv, "--columns", "email"],
                environment: ["ZEROPII_ACCESS_TOKEN": "t"])
            #expect(run.status == 1, "\(wire)")
            #expect(
                run.errorOutput == "zeropii: the API \(api) \(what). The run stopped: line 2 and everything after it were not tokenized\n",
                "\(run.errorOutput)")
            #expect(server.statistics.wireProfileCounts.values.reduce(0, +) <= 4, "\(wire)")
        }
    }
}
