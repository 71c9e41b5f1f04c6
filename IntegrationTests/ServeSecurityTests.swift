import Foundation
import Testing
import ZeroPiiTestHelpers

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `zeropii serve` process whose standard error goes to a file, read once it has stopped.
final class ServeProcess: @unchecked Sendable {
    // Sendable: every stored property is a constant; `Process` may be waited on and
    // signalled from any thread.
    let process = Process()
    let base: URL
    private let errorFile: String

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        errorFile = NSTemporaryDirectory() + "zeropii-serve-stderr-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        process.executableURL = CommandLineTool.executable
        process.arguments = ["serve", "--port", "0"] + arguments
        var inherited = ProcessInfo.processInfo.environment
        inherited["ZEROPII_SERVE_CLIENTS"] = nil
        process.environment = inherited.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
        try process.run()
        let firstLine = output.fileHandleForReading.readFirstLine()
        // A server bound to every address (0.0.0.0) is reached on loopback.
        let address = String(decoding: firstLine, as: UTF8.self).split(separator: " ").first { $0.hasPrefix("http://") }?
            .replacingOccurrences(of: "http://0.0.0.0:", with: "http://127.0.0.1:")
        guard let address, let base = URL(string: address) else {
            process.terminate()
            throw POSIXError(.ECONNREFUSED)
        }
        self.base = base
    }

    /// Stops the server and returns what it wrote on standard error.
    func stop() -> String {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitForExit(atMost: 60, "the server after SIGTERM")
        }
        defer { try? FileManager.default.removeItem(atPath: errorFile) }
        return (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
    }

    deinit { _ = stop() }

    /// What the server has written on standard error so far.
    var errorOutputSoFar: String { (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "" }

    func get(_ path: String, headers: [String: String] = [:]) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: base.appendingPathComponent(path))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    func post(_ path: String, body: String, headers: [String: String] = [:]) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    func tokenStatus(id: String, secret: String) async throws -> Int {
        try await post("oauth/token", body: "grant_type=client_credentials&client_id=\(id)&client_secret=\(secret)").status
    }
}

/// `zeropii serve`'s credentials and request log, by running the binary.
@Suite(.skippedUnderThreadSanitizer)
struct ServeSecurityTests {
    @Test func credentialsComeFromAFileOrTheEnvironmentAndTheDemoPairOnlyOnRequest() async throws {
        let file = NSTemporaryDirectory() + "zeropii-clients-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "# team clients\nfile-app:file-s3cret\n\n".write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)

        let server = try ServeProcess(["--client-file", file], environment: ["ZEROPII_SERVE_CLIENTS": "env-app:env-s3cret other:x"])
        #expect(try await server.tokenStatus(id: "file-app", secret: "file-s3cret") == 200)
        #expect(try await server.tokenStatus(id: "env-app", secret: "env-s3cret") == 200)
        #expect(try await server.tokenStatus(id: "zeropii-demo", secret: "zeropii-demo-secret") == 401)
        let errors = server.stop()
        #expect(!errors.contains("warning"), "\(errors)")
        #expect(!errors.contains("s3cret"))

        let demo = try ServeProcess(["--demo-client"])
        #expect(try await demo.tokenStatus(id: "zeropii-demo", secret: "zeropii-demo-secret") == 200)
        _ = demo.stop()

        let none = try ServeProcess([])
        #expect(try await none.tokenStatus(id: "zeropii-demo", secret: "zeropii-demo-secret") == 401)
        #expect(none.stop().contains("no OAuth clients configured"))
    }

    @Test func theClientOptionStillWorksButWarns() async throws {
        let server = try ServeProcess(["--client", "app:argv-s3cret"])
        #expect(try await server.tokenStatus(id: "app", secret: "argv-s3cret") == 200)
        let errors = server.stop()
        #expect(errors.contains("warning: --client shows the secret"))
        #expect(!errors.contains("argv-s3cret"))
    }

    @Test func aMalformedClientFileIsAUsageErrorThatDoesNotQuoteTheFile() throws {
        let file = NSTemporaryDirectory() + "zeropii-clients-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "good:one\nno-colon-s3cret\n".write(toFile: file, atomically: true, encoding: .utf8)
        let finished = try CommandLineTool.run(["serve", "--port", "0", "--client-file", file])
        #expect(finished.status == 2)
        #expect(finished.errorOutput.contains("line 2 of the client file"))
        #expect(!finished.errorOutput.contains("s3cret"))
    }

    /// Off loopback the admin endpoints need the token `serve` prints at start; without
    /// it, or with another, a request gets 401 and changes nothing.
    @Test func adminEndpointsOffLoopbackNeedTheTokenPrintedAtStart() async throws {
        let server = try ServeProcess(["--host", "0.0.0.0", "--admin"])
        let printed = server.errorOutputSoFar.split(separator: "\n").first { $0.hasPrefix("zeropii: admin token ") }
        let token = try #require(printed?.split(separator: " ").last.map(String.init))
        #expect(token.count == 43)
        let bare = try await server.get("__admin/stats")
        #expect(bare.status == 401 && bare.body.contains("invalid_admin_token"))
        #expect(try await server.post("__admin/expire-tokens", body: "", headers: ["Authorization": "Bearer not-the-token-at-all"]).status == 401)
        #expect(try await server.get("__admin/stats", headers: ["Authorization": "Bearer \(token)"]).status == 200)
        let errors = server.stop()
        #expect(
            errors.contains(
                "zeropii: warning: --admin on 0.0.0.0: the admin endpoints (faults, token revocation, statistics) can be reached from the network; each request needs the admin token"
            ))
        // Its own line only: the token appears nowhere else.
        #expect(errors.components(separatedBy: token).count == 2)
    }

    @Test func anAdminTokenFileIsRequiredOnLoopbackToo() async throws {
        let file = NSTemporaryDirectory() + "zeropii-admin-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "team-admin-token-0123456789\n".write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let server = try ServeProcess(["--admin", "--admin-token-file", file])
        #expect(try await server.get("__admin/stats").status == 401)
        #expect(try await server.get("__admin/stats", headers: ["Authorization": "Bearer team-admin-token-0123456789"]).status == 200)
        let errors = server.stop()
        #expect(!errors.contains("admin token ("), "a token from a file is not printed")
        #expect(!errors.contains("warning"))
    }

    @Test func aBadAdminTokenFileIsAUsageErrorThatDoesNotQuoteIt() throws {
        let file = NSTemporaryDirectory() + "zeropii-admin-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "short-secret\n".write(toFile: file, atomically: true, encoding: .utf8)
        let short = try CommandLineTool.run(["serve", "--port", "0", "--admin", "--admin-token-file", file])
        #expect(short.status == 2)
        #expect(short.errorOutput.contains("must hold a token of at least 16 characters") && !short.errorOutput.contains("short-secret"))
        let missing = try CommandLineTool.run(["serve", "--port", "0", "--admin", "--admin-token-file", file + ".absent"])
        #expect(missing.status == 2 && missing.errorOutput.contains("cannot be read: no such file or directory"))
        try "long-enough-admin-token\n".write(toFile: file, atomically: true, encoding: .utf8)
        let withoutAdmin = try CommandLineTool.run(["serve", "--port", "0", "--admin-token-file", file])
        #expect(withoutAdmin.status == 2 && withoutAdmin.errorOutput.contains("--admin-token-file needs --admin"))
    }

    @Test func theRequestLogHasOneLinePerRequestAndNoValueOrToken() async throws {
        let server = try ServeProcess(["--allow-any-token", "--log-requests", "--wire", "plaintext"])
        let accessToken = "access-token-\(UUID().uuidString)"
        let value = "alice.\(UUID().uuidString.prefix(8))@example.com"
        let single = try await server.post(
            "ct-vault/api/v2/tokenize", body: "{\"value\":\"\(value)\"}",
            headers: ["Authorization": "Bearer \(accessToken)", "Content-Type": "application/json"])
        #expect(single.status == 200)
        let batch = try await server.post(
            "ct-vault/api/v2/tokenize/batch", body: "{\"values\":[\"\(value)\",\"42\",\"x\"]}",
            headers: ["Authorization": "Bearer \(accessToken)", "Content-Type": "application/json"])
        #expect(batch.status == 200)
        let unknown = try await server.post(value, body: "")
        #expect(unknown.status == 404)
        let errors = server.stop()

        let lines = errors.split(separator: "\n").filter { $0.contains("ms values=") }
        #expect(lines.count == 3, "\(errors)")
        #expect(lines.count == 3 && lines[0].contains(" POST /ct-vault/api/v2/tokenize 200 ") && lines[0].hasSuffix(" values=1"))
        #expect(lines.count == 3 && lines[1].contains(" POST /ct-vault/api/v2/tokenize/batch 200 ") && lines[1].hasSuffix(" values=3"))
        #expect(lines.count == 3 && lines[2].contains(" POST - 404 ") && lines[2].hasSuffix(" values=0"))
        let token = single.body.components(separatedBy: "\"token\":\"").dropFirst().first?.split(separator: "\"").first.map(String.init)
        #expect(token != nil)
        for secret in [value, accessToken, token ?? value] {
            #expect(!errors.contains(secret))
        }
        // The time comes first, in ISO 8601 with a zone.
        #expect(lines.first.map { $0.split(separator: " ")[0].hasSuffix("Z") } == true)
    }
}
