import Foundation
import Testing
import ZeroPiiTestHelpers

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The blocking process helpers, run on a Dispatch thread so that waiting for a process
/// does not hold one of the few threads of the test run's shared concurrency pool.
enum OffPool {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    static func tool(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandLineTool.Finished {
        try await run { try CommandLineTool.run(arguments, environment: environment) }
    }

    static func serve(_ arguments: [String]) async throws -> ServeProcess {
        try await run { try ServeProcess(arguments) }
    }
}

extension ServeProcess {
    var address: String { base.absoluteString }

    /// The `/__admin/stats` object (the server must run with `--admin`).
    func statistics() async throws -> [String: Any] {
        let (body, _) = try await URLSession.shared.data(from: base.appendingPathComponent("__admin/stats"))
        return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }
}

/// `--wire` on `zeropii tokenize` and `zeropii serve`, run as processes.
@Suite(.skippedUnderThreadSanitizer)
struct WireOptionCommandLineTests {
    @Test func tokenizeSpeaksEachProfileToAServerOfThatProfileOnly() async throws {
        for profile in ["v1", "clevertap", "plaintext"] {
            let server = try await OffPool.serve(["--allow-any-token", "--admin", "--wire", profile])
            defer { _ = server.stop() }
            let accepted = try await OffPool.tool(
                ["tokenize", "--wire", profile, "--api-url", server.address, "alice@example.com", "42"],
                environment: ["ZEROPII_ACCESS_TOKEN": "any"])
            #expect(accepted.status == 0, "\(profile): \(accepted.errorOutput)")
            let tokens = accepted.output.split(separator: "\n")
            #expect(tokens.count == 2 && tokens.first.map { String($0).formatShape } == "alice@example.com".formatShape)
            let wireProfiles = try await server.statistics()["wireProfiles"] as? [String: Int]
            #expect(wireProfiles == [profile: 1], "\(profile)")

            // Any other profile is refused, and nothing is tokenized.
            for other in ["v1", "clevertap", "plaintext"] where other != profile {
                let refused = try await OffPool.tool(
                    ["tokenize", "--wire", other, "--api-url", server.address, "alice@example.com"], environment: ["ZEROPII_ACCESS_TOKEN": "any"])
                #expect(refused.status == 1, "\(other) against \(profile)")
                // A refused setup stops the run at the first batch, before its output.
                #expect(refused.output == "")
                #expect(
                    refused.errorOutput.contains(
                        other == "plaintext"
                            ? "does not accept --wire plaintext (HTTP 400)" : "could not decrypt the request (HTTP 419); check that --wire \(other)"),
                    "\(refused.errorOutput)")
            }
            let notes = server.stop()
            #expect(notes.contains("accepting only these wire profiles: \(profile)"), "\(notes)")
        }
    }

    /// `serve` takes the SDK's default profile alone unless --wire names more (found from
    /// outside: it took plaintext by default, so an app sending values in clear was served).
    @Test func serveAcceptsV1ByDefaultAndAListWhenGiven() async throws {
        let v1 = try await OffPool.serve(["--allow-any-token"])
        defer { _ = v1.stop() }
        for (profile, status) in [("v1", 0), ("clevertap", 1), ("plaintext", 1)] {
            let run = try await OffPool.tool(
                ["tokenize", "--wire", profile, "--api-url", v1.address, "alice@example.com"], environment: ["ZEROPII_ACCESS_TOKEN": "any"])
            #expect(run.status == Int32(status), "\(profile): \(run.errorOutput)")
        }
        #expect(!v1.stop().contains("accepting only"))

        let all = try await OffPool.serve(["--allow-any-token", "--admin", "--wire", "v1,clevertap,plaintext"])
        defer { _ = all.stop() }
        var tokens: Set<String> = []
        for profile in ["v1", "clevertap", "plaintext"] {
            let run = try await OffPool.tool(
                ["tokenize", "--wire", profile, "--api-url", all.address, "alice@example.com"], environment: ["ZEROPII_ACCESS_TOKEN": "any"])
            #expect(run.status == 0, "\(profile): \(run.errorOutput)")
            tokens.insert(run.output)
        }
        #expect(tokens.count == 1)
        let counts = try await all.statistics()["wireProfiles"] as? [String: Int]
        #expect(counts == ["v1": 1, "clevertap": 1, "plaintext": 1])
        #expect(!all.stop().contains("accepting only"))

        let two = try await OffPool.serve(["--allow-any-token", "--wire", "clevertap,v1"])
        defer { _ = two.stop() }
        let plain = try await OffPool.tool(
            ["tokenize", "--wire", "plaintext", "--api-url", two.address, "x"], environment: ["ZEROPII_ACCESS_TOKEN": "any"])
        #expect(plain.status == 1 && plain.errorOutput.contains("does not accept --wire plaintext (HTTP 400)"), "\(plain.errorOutput)")
        #expect(two.stop().contains("accepting only these wire profiles: v1, clevertap"))
    }

    @Test(arguments: [["--wire", "v2"], ["--wire"], ["--wire", "v1,clevertap"]])
    func tokenizeRejectsAnUnknownProfile(arguments: [String]) async throws {
        let finished = try await OffPool.tool(["tokenize"] + arguments + ["x"])
        #expect(finished.status == 2)
        #expect(finished.errorOutput.contains("--wire takes v1, clevertap, plaintext"))
    }

    @Test func theHelpTextsNameTheOption() async throws {
        for command in ["tokenize", "serve", "demo"] {
            let help = try await OffPool.tool(["help", command])
            #expect(help.status == 0 && help.output.contains("--wire"), "\(command)")
            #expect(help.output.contains("clevertap"), "\(command)")
        }
    }
}
