import Foundation
import Testing
import ZeroPiiCrypto
import ZeroPiiModels

@testable import ZeroPiiMockServer

/// The vault's guarantees as a client sees them, over real HTTP connections.
struct VaultOverHTTPTests {
    /// One HTTP request over a fresh connection; the status and the body.
    static func post(_ path: String, port: UInt16, token: String, body: Data, encrypted: Bool = false) throws -> (Int, String) {
        let client = try RawClient(port: port)
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
        if encrypted { head += "X-ZeroPii-Encryption: v1\r\n" }
        head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        client.send(Data(head.utf8) + body)
        let response = try #require(client.readResponse())
        return (response.status, response.body)
    }

    /// A failed write answers 500 with no token; what was answered before and after
    /// keeps its token across a restart, and the failed value is new then.
    @Test func aFailedWriteIsA500WithNoTokenAndLosesNothingAnswered() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let system = InjectedFileSystem()
        let server = try MockTokenizationServer(configuration: MockServerConfiguration(), vault: TokenVault(path: path, system: system))
        let token = server.issueAccessToken()
        func tokenize(_ values: [String]) throws -> (Int, String) {
            try Self.post(
                "/ct-vault/api/v2/tokenize/batch", port: server.port, token: token,
                body: try JSONEncoder().encode(WireBodies.BatchTokenizeRequest(values: values)))
        }
        let (firstStatus, first) = try tokenize(["kept-1@example.com", "kept-2@example.com"])
        #expect(firstStatus == 200)
        #expect(server.statistics.lastVaultError == nil)
        system.failNextWriteHalfway = true
        let (failedStatus, failed) = try tokenize(["lost@example.com"])
        #expect(failedStatus == 500)
        #expect(!failed.contains("token\"") && !failed.contains("lost"))
        // The cause is kept for a process that embeds the server (zeropii tokenize says it
        // once and stops); the answer to the client stays generic, without the file.
        #expect(server.statistics.lastVaultError == .cannotWrite)
        #expect(server.statistics.lastVaultError?.path == path)
        #expect(failed.contains("the vault could not store the values") && !failed.contains(path))
        let (thirdStatus, third) = try tokenize(["kept-3@example.com"])
        #expect(thirdStatus == 200)
        // The vault stores again: the old failure is not kept to blame a later 500 on.
        #expect(server.statistics.lastVaultError == nil)
        server.stop()

        let restarted = try MockTokenizationServer(
            configuration: {
                var configuration = MockServerConfiguration()
                configuration.dataFile = path
                return configuration
            }())
        defer { restarted.stop() }
        let again = try restarted.vault.tokenize(["kept-1@example.com", "kept-2@example.com", "kept-3@example.com", "lost@example.com"])
        #expect(again.map(\.exists) == [true, true, true, false])
        let answered =
            try JSONDecoder().decode(WireBodies.BatchTokenizeResponse.self, from: Data(first.utf8)).results.map(\.token)
            + JSONDecoder().decode(WireBodies.BatchTokenizeResponse.self, from: Data(third.utf8)).results.map(\.token)
        #expect(again.prefix(3).map(\.token) == answered)
    }

    /// The same sealed envelope on 16 connections at once, 100 times: one 200 each time.
    @Test func aSealedEnvelopeSentOnSixteenConnectionsAtOnceIsAnsweredOnce() throws {
        let server = try MockTokenizationServer()
        defer { server.stop() }
        let accessToken = server.issueAccessToken()
        for round in 0..<100 {
            let requestID = UUID().uuidString.lowercased()
            let timestamp = Int64(Date().timeIntervalSince1970)
            let envelope = PayloadEnvelope(accessToken: accessToken, operation: "tokenize", requestID: requestID, timestamp: timestamp)
            let sealed = try envelope.sealRequest(try JSONEncoder().encode(WireBodies.TokenizeRequest(value: "v\(round)")))
            let body = try JSONEncoder().encode(
                WireBodies.EnvelopeRequest(
                    v: 1, rid: requestID, ts: timestamp, salt: envelope.salt.base64EncodedString(),
                    iv: sealed.iv.base64EncodedString(), ct: sealed.ciphertext.base64EncodedString()))
            // Sixteen threads, each with its connection open, released together.
            var head = "POST /ct-vault/api/v2/tokenize HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(accessToken)\r\n"
            head += "X-ZeroPii-Encryption: v1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            let request = Data(head.utf8) + body
            let port = server.port
            let statuses = ConcurrentResults<Int>(count: 16)
            let ready = DispatchSemaphore(value: 0)
            let gate = DispatchSemaphore(value: 0)
            let finished = DispatchGroup()
            for index in 0..<16 {
                finished.enter()
                Thread {
                    let client = try? RawClient(port: port)
                    ready.signal()
                    gate.wait()
                    client?.send(request)
                    statuses.set(index, client?.readResponse()?.status ?? 0)
                    finished.leave()
                }.start()
            }
            for _ in 0..<16 { ready.wait() }
            for _ in 0..<16 { gate.signal() }
            finished.wait()
            let all = statuses.all
            #expect(all.filter { $0 == 200 }.count == 1 && all.filter { $0 == 409 }.count == 15, "round \(round): \(all)")
        }
    }
}
