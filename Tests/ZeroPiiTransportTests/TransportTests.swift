import Foundation
import Testing
import ZeroPiiTestSupport
import ZeroPiiTransport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serialized: each test runs its own loopback server, and keeping them apart makes a
/// failure point at one of them.
@Suite(.serialized)
struct URLSessionTransportTests {
    @Test func sendsMethodHeadersAndBodyAndReturnsTheResponse() async throws {
        let server = try LoopbackHTTPServer { request in
            let echo = "\(request.method) \(request.path) \(request.headers["x-test"] ?? "-") \(String(decoding: request.body, as: UTF8.self))"
            return .respond(status: 201, headers: ["X-Reply": "yes"], body: Data(echo.utf8))
        }
        defer { server.stop() }
        let request = TransportRequest(
            method: "POST", url: server.baseURL.appendingPathComponent("ct-vault/api/v2/tokenize"),
            headers: ["X-Test": "header-value", "Content-Type": "application/json"], body: Data(#"{"value":"v"}"#.utf8), timeout: 10
        )
        let response = try await URLSessionTransport().send(request)
        #expect(response.statusCode == 201)
        #expect(response.header("x-reply") == "yes")
        #expect(String(decoding: response.body, as: UTF8.self) == #"POST /ct-vault/api/v2/tokenize header-value {"value":"v"}"#)
    }

    @Test func errorStatusesAreResponsesNotErrors() async throws {
        let server = try LoopbackHTTPServer { request in
            request.path == "/empty"
                ? .respond(status: 503, headers: ["Retry-After": "3"], body: Data())
                : .respond(status: 503, headers: ["Retry-After": "3"], body: Data("x".utf8))
        }
        defer { server.stop() }
        let response = try await URLSessionTransport().send(TransportRequest(method: "POST", url: server.baseURL, timeout: 10))
        #expect(response.statusCode == 503)
        let empty = try await URLSessionTransport().send(
            TransportRequest(method: "POST", url: server.baseURL.appendingPathComponent("empty"), timeout: 10))
        #expect(empty.statusCode == 503)
        #expect(response.header("Retry-After") == "3")
    }

    @Test func aRefusedConnectionIsANetworkFailure() async throws {
        let server = try LoopbackHTTPServer { _ in .hang }
        let url = server.baseURL
        server.stop()
        await #expect(throws: TransportError.connectionFailed) {
            try await URLSessionTransport().send(TransportRequest(method: "POST", url: url, timeout: 10))
        }
    }

    @Test func aSilentServerTimesOut() async throws {
        let server = try LoopbackHTTPServer { _ in .hang }
        defer { server.stop() }
        let started = Date()
        await #expect(throws: TransportError.timedOut) {
            try await URLSessionTransport().send(TransportRequest(method: "POST", url: server.baseURL, timeout: 1))
        }
        // Ends, rather than hangs: in the full suite's last pass FoundationNetworking's own
        // threads have been seen to take 20 s over a 1 s timeout while the machine is full.
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        let (arrived, continuation) = AsyncStream<Void>.makeStream()
        let server = try LoopbackHTTPServer { _ in
            continuation.yield()
            return .hang
        }
        defer { server.stop() }
        let started = Date()
        let task = Task {
            try await URLSessionTransport().send(TransportRequest(method: "POST", url: server.baseURL, timeout: 60))
        }
        var iterator = arrived.makeAsyncIterator()
        _ = await iterator.next()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(Date().timeIntervalSince(started) < 30)
    }

    /// Cancellations and time limits that meet the server's answer: FoundationNetworking
    /// stops the process when a data task is cancelled as it completes (a loop like this
    /// one hit it within a second with a session that has a URL cache, as an app's
    /// ephemeral session does), so every ending here must come out as the answer, a
    /// `CancellationError` or `timedOut`, with no crash and no call left waiting. Both
    /// the transport's own session and an app's.
    @Test(arguments: [false, true])
    func endingsThatMeetTheAnswerNeitherCrashNorHang(appSession: Bool) async throws {
        let server = try LoopbackHTTPServer(keepsConnectionsAlive: true) { _ in .respond(status: 200, headers: [:], body: Data("ok".utf8)) }
        defer { server.stop() }
        let session = appSession ? URLSession(configuration: .ephemeral) : nil
        defer { session?.finishTasksAndInvalidate() }
        let transport = session.map { URLSessionTransport(session: $0) } ?? URLSessionTransport()
        let tally = try await EndingRace.run(
            transport, url: server.baseURL, cancellations: 1_500, limits: 1_500, limit: { Double($0 % 30 + 1) * 0.000_05 })
        #expect(tally.total == 3_000)
        #expect(tally.cancelled > 0 && tally.timedOut > 0, "the endings came before some answers")
    }

    @Test func timeoutsOfAnySizeWorkWithoutTrapping() async throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, headers: [:], body: Data("ok".utf8)) }
        defer { server.stop() }
        for timeout in [TimeInterval.infinity, 1e300, TimeInterval(Int.max), URLSessionTransport.longestTimeout + 1] {
            let response = try await URLSessionTransport().send(TransportRequest(method: "POST", url: server.baseURL, timeout: timeout))
            #expect(response.statusCode == 200, "\(timeout)")
        }
        for timeout in [0, -1, TimeInterval.nan] {
            await #expect(throws: TransportError.timedOut, "\(timeout)") {
                try await URLSessionTransport().send(TransportRequest(method: "POST", url: server.baseURL, timeout: timeout))
            }
        }
    }

    @Test func anAppSessionOutlivesItsTransport() async throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 204, headers: [:], body: Data()) }
        defer { server.stop() }
        let appSession = URLSession(configuration: .ephemeral)
        defer { appSession.invalidateAndCancel() }
        weak var released: URLSessionTransport?
        do {
            let transport = URLSessionTransport(session: appSession)
            released = transport
            #expect(try await transport.send(TransportRequest(method: "POST", url: server.baseURL, timeout: 10)).statusCode == 204)
        }
        #expect(released == nil)
        // A round trip after the transport's deinit: the session still takes new tasks.
        for _ in 0..<2 {
            let again = try await URLSessionTransport(session: appSession).send(TransportRequest(method: "POST", url: server.baseURL, timeout: 10))
            #expect(again.statusCode == 204)
        }
    }

    @Test func aRequestTheSessionCancelsIsTransportCancelledNotACallerCancellation() async throws {
        let (arrived, continuation) = AsyncStream<Void>.makeStream()
        let server = try LoopbackHTTPServer { _ in
            continuation.yield()
            return .hang
        }
        defer { server.stop() }
        let appSession = URLSession(configuration: .ephemeral)
        let task = Task {
            try await URLSessionTransport(session: appSession).send(TransportRequest(method: "POST", url: server.baseURL, timeout: 60))
        }
        var iterator = arrived.makeAsyncIterator()
        _ = await iterator.next()
        appSession.invalidateAndCancel()  // the app tears its session down
        await #expect(throws: TransportError.cancelled) { try await task.value }
    }

    @Test func errorsAreLocalized() {
        let error: Error = TransportError.connectionFailed(detail: "URLError -1004")
        #expect(error.localizedDescription == "the connection failed (URLError -1004)")
    }

    @Test func descriptionsHoldNoBodyOrHeaders() {
        let request = TransportRequest(
            method: "POST", url: URL(string: "https://x.test/p?q=1")!, headers: ["Authorization": "Bearer SECRET"], body: Data("alice".utf8))
        #expect(!request.description.contains("SECRET") && !request.description.contains("alice"))
        let response = TransportResponse(statusCode: 200, body: Data("token-xyz".utf8))
        #expect(!response.description.contains("token-xyz"))
    }
}

struct ClosureTransportTests {
    @Test func presetsAnswerAsConfigured() async throws {
        let request = TransportRequest(method: "POST", url: URL(string: "https://x.test/")!)
        let response = try await ClosureTransport.responding(statusCode: 429, headers: ["Retry-After": "1"]).send(request)
        #expect(response.statusCode == 429 && response.header("retry-after") == "1")
        await #expect(throws: TransportError.timedOut) { try await ClosureTransport.failing(with: .timedOut).send(request) }
        let echo = ClosureTransport { TransportResponse(statusCode: 200, body: $0.body) }
        #expect(try await echo.send(TransportRequest(method: "POST", url: request.url, body: Data([1, 2]))).body == Data([1, 2]))
    }
}
