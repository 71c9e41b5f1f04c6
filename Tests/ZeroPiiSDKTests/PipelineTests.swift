import Foundation
import Testing
import ZeroPiiCrypto
import ZeroPiiLocking
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

struct PipelineTests {
    @Test(arguments: ZeroPiiWireProfile.allCases)
    func tokenizesOneValueInEveryWireProfile(wireProfile: ZeroPiiWireProfile) async throws {
        let server = InTestServer()
        let client = makeClient(server: server, wireProfile: wireProfile)
        let first = await client.tokenize("alice@example.com")
        #expect(first.isSuccess)
        #expect(first.token == InTestServer.token(for: "alice@example.com"))
        #expect(first.newlyCreated && !first.exists && first.dataType == "string")
        let second = await client.tokenize("alice@example.com")
        #expect(second.token == first.token && second.exists && !second.newlyCreated)

        let request = try #require(server.requests.first)
        #expect(request.url.absoluteString == "https://tokens.example.test/api/ct-vault/api/v2/tokenize")
        #expect(request.header("Authorization") == "Bearer secret-access-token-1")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("User-Agent")?.hasPrefix("ZeroPiiSDK/1.0.0 (") == true)
        let requestID = try #require(request.header("X-Request-ID"))
        #expect(UUID(uuidString: requestID) != nil && requestID == requestID.lowercased())
        #expect(request.header("X-ZeroPii-Encryption") == (wireProfile == .protocolV1 ? "v1" : nil))
        #expect(request.header("Encrypted") == (wireProfile == .cleverTapCompatible ? "true" : nil))
        // Encrypted bodies never carry the value in readable form.
        #expect(String(decoding: request.body, as: UTF8.self).contains("alice") == (wireProfile == .plaintext))
    }

    @Test func eachAttemptIsSealedAfresh() async throws {
        let server = InTestServer()
        server.script(status: 503)
        let client = makeClient(server: server)
        #expect(await client.tokenize("v").isSuccess)
        let bodies = try server.requests.map { try JSONDecoder().decode(WireBodies.EnvelopeRequest.self, from: $0.body) }
        try #require(bodies.count == 2)
        #expect(bodies[0].rid != bodies[1].rid && bodies[0].salt != bodies[1].salt && bodies[0].iv != bodies[1].iv)
        #expect(server.requests.map { $0.header("X-Request-ID") } == bodies.map(\.rid))
    }

    @Test func batchesKeepOrderAndSummary() async throws {
        let server = InTestServer()
        let client = makeClient(server: server)
        _ = await client.tokenize("b@example.com")
        let result = await client.batchTokenize(["a@example.com", "b@example.com", "42", "a@example.com"])
        #expect(result.isSuccess)
        #expect(result.results.map(\.originalValue) == ["a@example.com", "b@example.com", "42", "a@example.com"])
        #expect(result.results.map(\.token) == ["a@example.com", "b@example.com", "42", "a@example.com"].map(InTestServer.token(for:)))
        #expect(result.results.map(\.newlyCreated) == [true, false, true, false])
        #expect(result.results[2].dataType == "number")
        #expect(result.summary?.processedCount == 4 && result.summary?.existingCount == 2 && result.summary?.newlyCreatedCount == 2)
    }

    /// Docs/Protocol.md section 6, row by row: status, whether it is retried, and what the
    /// result says.
    @Test(arguments: [
        (400, 1, false), (403, 1, false), (404, 1, false), (409, 1, false), (413, 1, false), (418, 1, false), (419, 1, false),
        (429, 2, true), (500, 2, true), (501, 1, false), (502, 2, true), (503, 2, true), (504, 2, true),
    ])
    func statusTable(status: Int, expectedRequests: Int, retried: Bool) async throws {
        let server = InTestServer()
        server.script(status: status)
        server.script(status: status)
        let clock = ImmediateRetryClock()
        let client = makeClient(server: server, retryClock: clock)
        let result = await client.tokenize("value")
        #expect(server.requests.count == expectedRequests)
        #expect(!result.isSuccess)
        #expect(result.httpStatusCode?.intValue == status)
        #expect(result.errorMessage?.contains("HTTP \(status)") == true)
        #expect(clock.sleeps == (retried ? [2000] : []))
    }

    @Test func aRetryThatSucceedsGivesTheToken() async throws {
        let server = InTestServer()
        server.script(status: 502)
        let result = await makeClient(server: server).tokenize("value")
        #expect(result.isSuccess && result.token == InTestServer.token(for: "value"))
    }

    /// An app's transport may put anything in its error's detail, the request's body and
    /// headers included: the result's message and the log lines name the failure, and
    /// show a detail only in the forms the package's own transport writes (found by an
    /// outside test: the value and the access token came back verbatim).
    @Test func anAppTransportsErrorDetailIsNotRepeated() async throws {
        let server = InTestServer()
        let log = CapturedLog()
        let client = makeClient(server: server, wireProfile: .plaintext, log: log) { configuration in
            configuration.transport = ClosureTransport { request in
                let leak = "reset while sending \(String(decoding: request.body, as: UTF8.self)) \(request.header("Authorization") ?? "")"
                throw TransportError.connectionFailed(detail: leak)
            }
        }
        let result = await client.tokenize("alice.secret@example.com")
        #expect(result.errorKind == .network)
        let message = try #require(result.errorMessage)
        #expect(message == "the network request failed: the connection failed")
        for text in log.all + [message, result.description] {
            #expect(!text.contains("alice.secret") && !text.contains("secret-access-token"), "\(text)")
        }
        #expect(log.all.contains { $0.contains("no HTTP response (the connection failed)") })

        // The package's own forms of detail still show.
        #expect(TransportError.connectionFailed(detail: "URLError -1004").descriptionForMessages == "the connection failed (URLError -1004)")
        #expect(TransportError.connectionFailed(detail: "no HTTP response").descriptionForMessages == "the connection failed (no HTTP response)")
        #expect(TransportError.connectionFailed(detail: "URLError -1004 alice").descriptionForMessages == "the connection failed")
        #expect(TransportError.connectionFailed(detail: "URLError ").descriptionForMessages == "the connection failed")
    }

    @Test func networkFailuresAreRetriedWithANilStatus() async throws {
        final class Policy: NSObject, RetryPolicy, @unchecked Sendable {
            var statuses: [Int?] = []
            func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool {
                statuses.append(httpStatusCode?.intValue)
                return attempt < 2
            }
            func retryDelayMs(attempt: Int) -> Int { 10 }
        }
        let policy = Policy()
        let server = InTestServer()
        let client = makeClient(server: server, retryPolicy: policy) { configuration in
            configuration.transport = ClosureTransport.failing(with: .connectionFailed)
        }
        let result = await client.tokenize("value")
        #expect(!result.isSuccess && result.httpStatusCode == nil)
        #expect(result.errorMessage?.contains("network") == true)
        #expect(policy.statuses == [nil, nil, nil])
    }

    /// A certificate that does not verify, a pin that does not match, a URL or protocol
    /// libcurl cannot use, a header refused before sending: sending again cannot help,
    /// so the policy is not asked (found from outside: TLS failures were sent twice).
    @Test(arguments: [
        ("curl 60", false), ("curl 90", false), ("curl 1", false), ("curl 3", false), ("curl 77", false),
        ("invalid header field", false), ("curl switched protocols", false), ("curl unclear content length", false),
        ("curl incomplete response", true), ("URLError -1202", false), ("curl 7", true), ("curl 28", true), ("curl 56", true),
        ("URLError -1004", true), ("reset by an app's transport", true),
    ])
    func failuresThatCannotBeHelpedAreNotRetried(detail: String, retried: Bool) async throws {
        let sent = Locked(0)
        let clock = ImmediateRetryClock()
        let client = makeClient(server: InTestServer(), retryClock: clock) { configuration in
            configuration.transport = ClosureTransport { _ in
                sent.withLock { $0 += 1 }
                throw TransportError.connectionFailed(detail: detail)
            }
        }
        let result = await client.tokenize("value")
        #expect(result.errorKind == .network)
        #expect(sent.withLock { $0 } == (retried ? 2 : 1), "\(detail)")
        #expect(clock.sleeps.count == (retried ? 1 : 0))
    }

    @Test func retryAfterIsHonouredFor429() async throws {
        let server = InTestServer()
        server.script(status: 429, headers: ["Retry-After": "9"])
        let clock = ImmediateRetryClock()
        let result = await makeClient(server: server, retryClock: clock).tokenize("value")
        #expect(result.isSuccess)
        #expect(clock.sleeps == [9000])
    }

    @Test func a401RefreshesTheTokenOnceAndReplays() async throws {
        let server = InTestServer(acceptedTokens: ["secret-access-token-2"])
        let provider = ScriptedProvider()
        let clock = ImmediateRetryClock()
        let result = await makeClient(server: server, provider: provider, retryClock: clock).tokenize("value")
        #expect(result.isSuccess)
        #expect(provider.calls == 2)
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer secret-access-token-1", "Bearer secret-access-token-2"])
        #expect(clock.sleeps.isEmpty)  // not passed to the retry policy
    }

    @Test func aSecond401IsAnError() async throws {
        let server = InTestServer(acceptedTokens: ["never-issued"])
        let provider = ScriptedProvider()
        let result = await makeClient(server: server, provider: provider).tokenize("value")
        #expect(!result.isSuccess && result.httpStatusCode?.intValue == 401)
        #expect(server.requests.count == 2 && provider.calls == 2)
    }

    @Test func aStaleRequestCorrectsTheClockAndReplaysOnce() async throws {
        let server = InTestServer()
        server.serverClockOffset = 3600  // the server is an hour ahead of this device
        let client = makeClient(server: server)
        let result = await client.tokenize("value")
        #expect(result.isSuccess)
        #expect(server.requests.count == 2)
        // The offset is kept: the next request is on time at once.
        #expect(await client.tokenize("other").isSuccess)
        #expect(server.requests.count == 3)
    }

    @Test func aDowngradedResponseIsRejected() async throws {
        let server = InTestServer()
        server.script { _ in
            TransportResponse(statusCode: 200, body: Data(#"{"token":"plain","exists":false,"newlyCreated":true}"#.utf8))
        }
        let result = await makeClient(server: server).tokenize("value")
        #expect(!result.isSuccess && result.token == nil)
        #expect(result.errorMessage?.contains("without payload encryption") == true)
        #expect(server.requests.count == 1)
    }

    @Test func tamperedOrMisdirectedResponsesAreRejected() async throws {
        for tamper in ["ciphertext", "rid", "version", "garbage"] {
            let server = InTestServer()
            server.script { request in
                var response = server.handleUnscripted(request)
                var wire = try! JSONDecoder().decode(WireBodies.EnvelopeResponse.self, from: response.body)
                switch tamper {
                case "ciphertext":
                    var bytes = Data(base64Encoded: wire.ct)!
                    bytes[0] ^= 1
                    wire.ct = bytes.base64EncodedString()
                case "rid": wire.rid = UUID().uuidString.lowercased()
                case "version": wire.v = 2
                default: response.body = Data("not json".utf8)
                }
                if tamper != "garbage" { response.body = try! JSONEncoder().encode(wire) }
                return response
            }
            let result = await makeClient(server: server).tokenize("value")
            #expect(!result.isSuccess, "\(tamper)")
            #expect(result.errorMessage == "the response could not be decrypted", "\(tamper)")
        }
    }

    @Test func inconsistentBatchesAreRejected() async throws {
        let values = ["a", "b", "c"]
        let item = { (value: String, exists: Bool) in
            WireBodies.BatchTokenizeItem(originalValue: value, token: "t" + value, exists: exists, newlyCreated: !exists, dataType: "string")
        }
        let summary = WireBodies.BatchTokenizeSummary(processedCount: 3, existingCount: 0, newlyCreatedCount: 3)
        let cases: [WireBodies.BatchTokenizeResponse] = [
            .init(results: [item("a", false), item("b", false)], summary: summary),
            .init(results: [item("a", false), item("b", false), item("c", false), item("c", false)], summary: summary),
            .init(results: [item("b", false), item("a", false), item("c", false)], summary: summary),
            .init(
                results: [item("a", false), item("b", false), item("c", false)],
                summary: .init(processedCount: 3, existingCount: 1, newlyCreatedCount: 2)),
            .init(results: [item("a", true), item("b", false), item("c", false)], summary: summary),
            .init(
                results: [
                    WireBodies.BatchTokenizeItem(originalValue: "a", token: "x", exists: true, newlyCreated: true, dataType: nil), item("b", false),
                    item("c", false),
                ],
                summary: .init(processedCount: 3, existingCount: 1, newlyCreatedCount: 3)
            ),
        ]
        for (index, response) in cases.enumerated() {
            #expect(!TokenizationClient.isConsistent(response, with: values), "case \(index)")
        }
        #expect(TokenizationClient.isConsistent(.init(results: values.map { item($0, false) }, summary: summary), with: values))

        let server = InTestServer()
        server.script { _ in TransportResponse(statusCode: 200, body: try! JSONEncoder().encode(cases[0])) }
        let result = await makeClient(server: server, wireProfile: .plaintext).batchTokenize(values)
        #expect(!result.isSuccess && result.results.isEmpty && result.summary == nil)
        #expect(result.errorMessage == "the server's response did not match the request")
    }

    @Test func hostileBodiesGiveErrorsNotCrashes() async throws {
        let bodies: [Data] = [
            Data(), Data("{".utf8), Data(#"{"token":1,"exists":false,"newlyCreated":true}"#.utf8),
            Data(#"{"token":"t","exists":true,"newlyCreated":true}"#.utf8), Data(repeating: 0x7B, count: 10_000_000),
        ]
        for body in bodies {
            let server = InTestServer()
            server.script { _ in TransportResponse(statusCode: 200, body: body) }
            let result = await makeClient(server: server, wireProfile: .plaintext).tokenize("value")
            #expect(!result.isSuccess && result.token == nil)
        }
    }

    /// Found from outside: a server that put a value it was sent in its error code had it
    /// repeated in the result's message, since it looked like an identifier. Only the
    /// protocol's own codes are repeated.
    @Test func onlyTheProtocolsErrorCodesAreRepeated() async throws {
        for (code, shown) in [("4111111111111111", false), ("alice", false), ("secretvalue12345", false), ("invalid_value", true)] {
            let server = InTestServer()
            server.script(status: 400, code: code)
            let result = await makeClient(server: server, wireProfile: .plaintext).tokenize(code)
            let message = try #require(result.errorMessage)
            #expect(message == "the server rejected the request as invalid (HTTP 400)" + (shown ? " [\(code)]" : ""), "\(code)")
            #expect(shown || !message.contains(code), "\(code)")
        }
    }

    @Test func cancellationEndsTheRequestWithAnErrorResult() async throws {
        let (started, continuation) = AsyncStream<Void>.makeStream()
        let server = InTestServer()
        let client = makeClient(server: server) { configuration in
            configuration.transport = ClosureTransport { _ in
                continuation.yield()
                try await Task.sleep(nanoseconds: 3_600 * 1_000_000_000)
                return TransportResponse(statusCode: 200)
            }
        }
        let task = Task { await client.tokenize("value") }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        task.cancel()
        let result = await task.value
        #expect(!result.isSuccess)
        #expect(result.errorMessage == "the request was cancelled")
    }

    @Test func anInvalidAPIURLFailsEveryRequestWithoutCrashing() async throws {
        var configuration = ZeroPiiConfiguration()
        configuration.transport = InTestServer().transport
        for url in ["", "not a url", "ftp://example.com", "/relative/path"] {
            let client = TokenizationClient(
                apiURL: url, tokenProvider: SharedTokenProvider(ScriptedProvider()), retryPolicy: DefaultRetryPolicy(),
                configuration: configuration, logger: SDKLogger(level: .off, handler: nil)
            )
            let result = await client.tokenize("value")
            #expect(!result.isSuccess, "\(url)")
        }
        #expect(TokenizationClient.baseURL(from: "https://example.com/base")?.absoluteString == "https://example.com/base/")
        #expect(TokenizationClient.baseURL(from: "https://example.com/base/")?.absoluteString == "https://example.com/base/")
    }
}

extension InTestServer {
    /// The server's own answer, for scripts that alter it.
    func handleUnscripted(_ request: TransportRequest) -> TransportResponse {
        let copy = InTestServer()
        return copy.handle(request)
    }
}

/// Token handling through the whole pipeline, under contention.
struct PipelineTokenTests {
    @Test func aThousandConcurrentCallsWithNoCachedTokenFetchOnce() async throws {
        let server = InTestServer()
        let provider = ScriptedProvider()
        let client = makeClient(server: server, provider: provider, wireProfile: .plaintext)
        let results = await withTaskGroup(of: TokenizeResult.self) { group in
            for index in 0..<1000 { group.addTask { await client.tokenize("value-\(index)") } }
            return await group.reduce(into: [TokenizeResult]()) { $0.append($1) }
        }
        #expect(results.count == 1000 && results.allSatisfy { $0.isSuccess })
        #expect(provider.calls == 1)
    }

    @Test func aThousandConcurrent401sRefreshOnce() async throws {
        let server = InTestServer(acceptedTokens: ["secret-access-token-2"])
        let provider = ScriptedProvider()
        let client = makeClient(server: server, provider: provider, wireProfile: .plaintext)
        let results = await withTaskGroup(of: TokenizeResult.self) { group in
            for index in 0..<1000 { group.addTask { await client.tokenize("value-\(index)") } }
            return await group.reduce(into: [TokenizeResult]()) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.isSuccess })
        #expect(provider.calls == 2)
    }

    @Test func aSilentProviderGivesAnErrorResultAfterTheTimeout() async throws {
        let clock = ManualTokenClock()
        let server = InTestServer()
        let client = makeClient(server: server, provider: ScriptedProvider(.never)) { configuration in
            configuration.tokenClock = clock
            configuration.tokenProviderTimeout = 30
        }
        let request = Task { await client.tokenize("value") }
        try await waitUntil("the call's time limit and the provider's timeout are running") { clock.sleeperCount >= 2 }
        clock.advance(by: 30)
        let result = await request.value
        #expect(!result.isSuccess && result.httpStatusCode == nil)
        #expect(result.errorMessage?.contains("could not be obtained") == true)
        #expect(server.requests.isEmpty)
    }

    @Test func aProviderCallingTwiceIsHarmless() async throws {
        let log = CapturedLog()
        let server = InTestServer()
        let result = await makeClient(server: server, provider: ScriptedProvider(.answerTwice), log: log).tokenize("value")
        #expect(result.isSuccess)
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer secret-token-1"])
        #expect(log.all.contains { $0.contains("called its completion again") })
    }

    @Test func expiryIsMeasuredOnTheTokenClock() async throws {
        let clock = ManualTokenClock()
        let provider = ScriptedProvider(expiresIn: 600)
        let client = makeClient(server: InTestServer(), provider: provider) { $0.tokenClock = clock }
        _ = await client.tokenize("a")
        clock.advance(by: 569)
        _ = await client.tokenize("b")
        #expect(provider.calls == 1)
        clock.advance(by: 1)  // 570 s: within the 30 s margin of expiry
        _ = await client.tokenize("c")
        #expect(provider.calls == 2)
    }
}

/// The provider-timeout and cancellation paths at `.debug`: no value, token or access
/// token in any log line, error message or description.
struct TimeoutAndCancellationLeakTests {
    @Test func noSecretsOnTimeoutOrCancellation() async throws {
        let value = "alice.secret@example.com"
        let log = CapturedLog()
        var texts: [String] = []

        let clock = ManualTokenClock()
        let timingOut = makeClient(server: InTestServer(), provider: ScriptedProvider(.never), log: log) { $0.tokenClock = clock }
        let pending = Task { await timingOut.tokenize(value) }
        try await waitUntil("the call's time limit and the provider's timeout are running") { clock.sleeperCount >= 2 }
        clock.advance(by: 30)
        let timedOut = await pending.value
        texts += [timedOut.description, timedOut.errorMessage ?? ""]

        let (started, continuation) = AsyncStream<Void>.makeStream()
        let hanging = makeClient(server: InTestServer(), provider: ScriptedProvider(tokenPrefix: "SECRET-ACCESS-TOKEN"), log: log) { configuration in
            configuration.transport = ClosureTransport { _ in
                continuation.yield()
                try await Task.sleep(nanoseconds: 3_600 * 1_000_000_000)
                return TransportResponse(statusCode: 200)
            }
        }
        let cancelled = Task { await hanging.batchTokenize([value]) }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        cancelled.cancel()
        let cancelledResult = await cancelled.value
        texts += [cancelledResult.description, cancelledResult.errorMessage ?? ""]

        #expect(!timedOut.isSuccess && cancelledResult.errorMessage == "the request was cancelled")
        #expect(!log.all.isEmpty)
        for text in texts + log.all {
            #expect(!text.contains("alice"), "\(text)")
            #expect(!text.contains("SECRET-ACCESS-TOKEN"), "\(text)")
        }
    }
}
