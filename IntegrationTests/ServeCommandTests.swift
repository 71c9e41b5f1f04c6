import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `zeropii serve` as a separate process: prints its address, serves, stops on a signal.
@Suite(.skippedUnderThreadSanitizer)
struct ServeCommandTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func servesUntilASignalAndStopsCleanly(signalNumber: Int32) async throws {
        let process = Process()
        process.executableURL = CommandLineTool.executable
        let dataFile = NSTemporaryDirectory() + "zeropii-serve-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: dataFile) }
        process.arguments = ["serve", "--port", "0", "--data-file", dataFile]
        process.environment = ProcessInfo.processInfo.environment.merging(["ZEROPII_SERVE_CLIENTS": "app:s3cret"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()

        // The first line names the address.
        let firstLine = output.fileHandleForReading.readFirstLine()
        let line = String(decoding: firstLine, as: UTF8.self)
        let address = try #require(line.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") })
        let base = try #require(URL(string: String(address)))

        let (health, response) = try await URLSession.shared.data(from: base.appendingPathComponent("healthz"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: health, as: UTF8.self).contains("ok"))
        var tokenRequest = URLRequest(url: base.appendingPathComponent("oauth/token"))
        tokenRequest.httpMethod = "POST"
        tokenRequest.httpBody = Data("grant_type=client_credentials&client_id=app&client_secret=s3cret".utf8)
        let (_, tokenResponse) = try await URLSession.shared.data(for: tokenRequest)
        #expect((tokenResponse as? HTTPURLResponse)?.statusCode == 200)

        kill(process.processIdentifier, signalNumber)
        process.waitForExit(atMost: 60, "the server after its signal")
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("stopped"))
        #expect(FileManager.default.fileExists(atPath: dataFile))
    }

    @Test(arguments: [
        ["serve", "--port"], ["serve", "--port", "70000"], ["serve", "--bogus"], ["serve", "--client", "nocolon"],
        ["serve", "--client-file", "/nonexistent/clients"],
        ["serve", "--token-ttl", "-1"], ["frobnicate"], ["serve", "--wire", "v1,android"], ["serve", "--wire"], ["serve", "--wire", ","],
    ])
    func usageErrorsExitWithStatus2AndAHint(arguments: [String]) throws {
        let finished = try CommandLineTool.run(arguments)
        #expect(finished.status == 2)
        #expect(finished.errorOutput.contains("zeropii:"))
        #expect(finished.errorOutput.contains("--help"))
    }

    @Test func helpExitsWithStatus0() throws {
        let finished = try CommandLineTool.run(["serve", "--help"])
        #expect(finished.status == 0)
        #expect(finished.output.contains("--data-file"))
    }
}

/// `zeropii tokenize` against a server in another process, with the client-credentials
/// flow: the way a user runs it against a real API.
@Suite(.skippedUnderThreadSanitizer)
struct TokenizeAgainstAnotherProcessTests {
    @Test func tokenizesWithClientCredentialsAgainstAServerProcess() async throws {
        let server = Process()
        server.executableURL = CommandLineTool.executable
        server.arguments = ["serve", "--port", "0"]
        server.environment = ProcessInfo.processInfo.environment.merging(["ZEROPII_SERVE_CLIENTS": "cli-test:cli-secret"]) { $1 }
        let serverOutput = Pipe()
        server.standardOutput = serverOutput
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            kill(server.processIdentifier, SIGTERM)
            server.waitForExit(atMost: 60, "the server after SIGTERM")
        }
        let firstLine = serverOutput.fileHandleForReading.readFirstLine()
        let address = try #require(String(decoding: firstLine, as: UTF8.self).split(separator: " ").first { $0.hasPrefix("http://") })

        let client = Process()
        client.executableURL = CommandLineTool.executable
        client.arguments = [
            "tokenize", "--api-url", String(address), "--token-url", String(address) + "oauth/token", "--client-id", "cli-test", "alice@example.com",
            "42",
        ]
        client.environment = ProcessInfo.processInfo.environment.merging(["ZEROPII_CLIENT_SECRET": "cli-secret"]) { $1 }
        let output = Pipe()
        client.standardOutput = output
        client.standardError = FileHandle.nullDevice
        try client.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        client.waitUntilExit()
        #expect(client.terminationStatus == 0)
        let tokens = printed.split(separator: "\n").map(String.init)
        #expect(tokens.count == 2)
        #expect((tokens.first ?? "").formatShape == "alice@example.com".formatShape && tokens.first != "alice@example.com")
        #expect(tokens.last?.count == 2 && tokens.last?.allSatisfy(\.isNumber) == true)

        // Wrong credentials: the provider fails, every value fails, exit status 1.
        let refused = Process()
        refused.executableURL = CommandLineTool.executable
        refused.arguments = [
            "tokenize", "--api-url", String(address), "--token-url", String(address) + "oauth/token", "--client-id", "cli-test", "x",
        ]
        refused.environment = ProcessInfo.processInfo.environment.merging(["ZEROPII_CLIENT_SECRET": "wrong"]) { $1 }
        refused.standardOutput = FileHandle.nullDevice
        let refusal = Pipe()
        refused.standardError = refusal
        try refused.run()
        let refusalText = String(decoding: refusal.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        refused.waitUntilExit()
        #expect(refused.terminationStatus == 1)
        #expect(
            refusalText
                == "zeropii: the token endpoint \(address)oauth/token answered 401 invalid_client: check --client-id and ZEROPII_CLIENT_SECRET\n")

        // An access token in the environment instead of on the command line, where `ps` shows it.
        var tokenRequest = URLRequest(url: try #require(URL(string: String(address) + "oauth/token")))
        tokenRequest.httpMethod = "POST"
        tokenRequest.httpBody = Data("grant_type=client_credentials&client_id=cli-test&client_secret=cli-secret".utf8)
        let (tokenBody, _) = try await URLSession.shared.data(for: tokenRequest)
        let accessToken = try #require((try JSONSerialization.jsonObject(with: tokenBody) as? [String: Any])?["access_token"] as? String)
        let fromEnvironment = try CommandLineTool.run(
            ["tokenize", "--api-url", String(address), "alice@example.com"], environment: ["ZEROPII_ACCESS_TOKEN": accessToken])
        #expect(fromEnvironment.status == 0)
        #expect(fromEnvironment.output == tokens[0] + "\n")
    }
}

/// `zeropii demo` end to end: both passes, and the wire section shows each profile's bytes.
@Suite(.skippedUnderThreadSanitizer)
struct DemoCommandTests {
    /// The wire section's part for each profile, keyed by the profile's `--wire` name.
    private static func wireSections(_ output: String) throws -> [String: String] {
        let wire = try #require(output.components(separatedBy: "On the wire:").last)
        var sections: [String: String] = [:]
        for part in wire.components(separatedBy: "\n\n  ").dropFirst() {
            let name = String(part.prefix { $0 != ":" })
            sections[name] = part
        }
        return sections
    }

    @Test func theTourShowsNewThenExistingTokensAndEachProfileOnTheWire() throws {
        let directory = NSTemporaryDirectory() + "zeropii-demo-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let finished = try CommandLineTool.run(["demo", "--data-dir", directory])
        #expect(finished.status == 0)
        let passes = finished.output.components(separatedBy: "Second pass")
        try #require(passes.count == 2, "output: \(finished.output.prefix(300)) errors: \(finished.errorOutput.prefix(300))")
        #expect(passes[0].contains("newlyCreated") && !passes[0].contains("(exists"))
        let secondPass = passes[1].components(separatedBy: "On the wire:")[0]
        #expect(secondPass.contains("(exists") && !secondPass.contains("newlyCreated"))
        let sections = try Self.wireSections(passes[1])
        #expect(Set(sections.keys) == ["v1", "clevertap", "plaintext"])
        let v1 = sections["v1"] ?? ""
        #expect(v1.contains("X-ZeroPii-Encryption: v1") && !v1.contains("Encrypted: true"))
        for field in ["\"salt\"", "\"iv\"", "\"ct\"", "\"rid\""] { #expect(v1.contains(field)) }
        #expect(!v1.contains("@example.com"))
        let cleverTap = sections["clevertap"] ?? ""
        #expect(cleverTap.contains("Encrypted: true") && !cleverTap.contains("X-ZeroPii-Encryption"))
        for field in ["\"itp\"", "\"itk\"", "\"itv\""] { #expect(cleverTap.contains(field)) }
        #expect(!cleverTap.contains("@example.com"))
        let plaintext = sections["plaintext"] ?? ""
        #expect(plaintext.contains("{\"value\":\"alice@example.com\"}") && plaintext.contains("\"token\""))
        #expect(finished.errorOutput.contains("embedded mock server"))
    }

    @Test func withWireTheWholeTourUsesThatProfileAndShowsOnlyIt() throws {
        let directory = NSTemporaryDirectory() + "zeropii-demo-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let finished = try CommandLineTool.run(["demo", "--data-dir", directory, "--wire", "clevertap"])
        #expect(finished.status == 0)
        #expect(!finished.output.contains("failed"))
        let sections = try Self.wireSections(finished.output)
        #expect(Array(sections.keys) == ["clevertap"])
        #expect(sections["clevertap"]?.contains("Encrypted: true") == true)

        let wrong = try CommandLineTool.run(["demo", "--wire", "v2"])
        #expect(wrong.status == 2)
        #expect(wrong.errorOutput.contains("--wire takes v1, clevertap, plaintext"))
    }
}
