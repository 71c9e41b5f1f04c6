#if os(Linux)
import Foundation
import Testing
import ZeroPiiLocking
@testable import ZeroPiiTransport

/// The libcurl transport against a loopback server: what it sends, what it returns, how
/// it fails, and what it does with connections. Serialized: each test runs its own
/// server and counts its connections.
@Suite(.serialized)
struct CurlTransportTests {
    @Test func libcurlIsAvailableOnThisMachine() {
        #expect(CurlTransport.unavailableReason == nil)
    }

    @Test func sendsMethodHeadersAndBodyAndReturnsTheResponse() async throws {
        let server = try LoopbackHTTPServer { request in
            let echo =
                "\(request.method) \(request.path) \(request.headers["x-test"] ?? "-") \(request.headers["expect"] ?? "no-expect") "
                + String(decoding: request.body, as: UTF8.self)
            return .respond(status: 201, headers: ["X-Reply": "yes", "X-Twice": "a\r\nX-Twice: b"], body: Data(echo.utf8))
        }
        defer { server.stop() }
        let request = TransportRequest(
            method: "POST", url: server.baseURL.appendingPathComponent("ct-vault/api/v2/tokenize"),
            headers: ["X-Test": "header-value", "Content-Type": "application/json"], body: Data(#"{"value":"v"}"#.utf8), timeout: 10)
        let response = try await CurlTransport().send(request)
        #expect(response.statusCode == 201)
        #expect(response.header("x-reply") == "yes")
        #expect(response.header("x-twice") == "a, b")
        #expect(String(decoding: response.body, as: UTF8.self) == #"POST /ct-vault/api/v2/tokenize header-value no-expect {"value":"v"}"#)
    }

    @Test func otherMethodsAndEmptyBodies() async throws {
        let server = try LoopbackHTTPServer(keepsConnectionsAlive: true) { request in
            .respond(
                status: 200, headers: [:], body: Data("\(request.method) \(request.body.count) \(request.headers["content-length"] ?? "-")".utf8))
        }
        defer { server.stop() }
        let transport = try CurlTransport()
        for (method, body, expected) in [
            ("GET", Data(), "GET 0 -"), ("POST", Data(), "POST 0 0"), ("PUT", Data("abc".utf8), "PUT 3 3"), ("DELETE", Data(), "DELETE 0 -"),
        ] {
            let response = try await transport.send(TransportRequest(method: method, url: server.baseURL, body: body, timeout: 10))
            #expect(String(decoding: response.body, as: UTF8.self) == expected)
        }
    }

    @Test(arguments: [200, 204, 301, 400, 401, 404, 409, 413, 419, 429, 500, 502, 503, 504])
    func everyStatusIsAResponse(status: Int) async throws {
        let server = try LoopbackHTTPServer { _ in
            .respond(status: status, headers: ["Retry-After": "3"], body: status == 204 ? Data() : Data("body-\(status)".utf8))
        }
        defer { server.stop() }
        let response = try await CurlTransport().send(TransportRequest(method: "POST", url: server.baseURL, timeout: 10))
        #expect(response.statusCode == status)
        #expect(response.header("retry-after") == "3")
        #expect(response.body == (status == 204 ? Data() : Data("body-\(status)".utf8)))
    }

    @Test func eightMegabyteBodiesBothWays() async throws {
        let server = try LoopbackHTTPServer { request in
            .respond(status: 200, headers: [:], body: Data(request.body.reversed()))
        }
        defer { server.stop() }
        var generator = SystemRandomNumberGenerator()
        let body = Data((0..<(8 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let response = try await CurlTransport().send(TransportRequest(method: "POST", url: server.baseURL, body: body, timeout: 60))
        #expect(response.statusCode == 200)
        #expect(response.body == Data(body.reversed()))
    }

    @Test func aResponseOverTheLimitFailsInsteadOfFillingMemory() async throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, headers: [:], body: Data(count: 300_000)) }
        defer { server.stop() }
        var options = CurlTransport.Options()
        options.maximumResponseBytes = 200_000
        await #expect(throws: TransportError.connectionFailed) {
            try await CurlTransport(options: options).send(TransportRequest(method: "POST", url: server.baseURL, timeout: 10))
        }
    }

    /// Found from outside: the cap was per response, so 64 connections each sent a body
    /// just under it held 3.6 GB. All responses being received together hold at most
    /// four times the cap: eight half-sent bodies of 90 KB against a 100 KB cap end at
    /// least four of them as too large.
    @Test func responsesInFlightTogetherStayWithinFourTimesTheCap() async throws {
        let server = try LoopbackHTTPServer { _ in .partial(status: 200, declaredLength: 200_000, body: Data(count: 90_000)) }
        defer { server.stop() }
        var options = CurlTransport.Options()
        options.maximumResponseBytes = 100_000
        let transport = try CurlTransport(options: options)
        let failures = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        _ = try await transport.send(TransportRequest(method: "POST", url: server.baseURL, timeout: 3))
                        return "answered"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(failures.filter { $0 == "the connection failed (curl response too large)" }.count >= 4, "\(failures)")
        #expect(!failures.contains("answered"))
    }

    /// Found from outside: when a reused connection died before any answer, libcurl sent
    /// the same request again on a new one by itself (the same sealed body and request
    /// id, past the retry policy; a server that had processed it answered 409). A request
    /// is sent once: the attempt fails as the server closing without an answer.
    @Test func aRequestIsNeverResentOnANewConnectionByLibcurl() async throws {
        let calls = Locked(0)
        let server = try LoopbackHTTPServer(keepsConnectionsAlive: true) { _ in
            // The first request is answered (its connection stays for reuse); every later
            // one is read and its connection closed without an answer.
            calls.withLock { count in
                count += 1
                return count == 1 ? .respond(status: 200, headers: [:], body: Data("ok".utf8)) : .close
            }
        }
        defer { server.stop() }
        let transport = try CurlTransport()
        let request = TransportRequest(method: "POST", url: server.baseURL, body: Data("v".utf8), timeout: 10)
        #expect(try await transport.send(request).statusCode == 200)
        await #expect(throws: TransportError.connectionFailed) { try await transport.send(request) }
        do {
            _ = try await transport.send(request)
        } catch let error as TransportError {
            // A fresh connection that gets nothing: libcurl's own 52.
            #expect(error.detail == "curl 52")
        }
        // Three sends, three requests: without the refusal libcurl sent the second one
        // again on a new connection (four requests, or more).
        #expect(server.receivedRequests == 3)
        // The refused resend reads as the server closing without an answer.
        #expect(CurlMultiLoop.error(for: 42, responseTooLarge: false, resendRefused: true).detail == "curl 52")
        #expect(CurlMultiLoop.error(for: 42, responseTooLarge: false, resendRefused: false).detail == "curl 42")
    }

    /// Found from outside: a connection closed in the middle of the headers
    /// (`HTTP/1.1 200 OK` and half a header name) came back as a 200 answer with no body,
    /// which the SDK then refused as unencrypted and did not retry. It is a network
    /// failure; a whole answer, headers ended by their empty line, is not.
    @Test func anAnswerCutOffInItsHeadersIsAFailure() async throws {
        for cut in ["HTTP/1.1 200 OK\r\nContent-Le", "HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"] {
            let server = try LoopbackHTTPServer { _ in .raw(Data(cut.utf8)) }
            defer { server.stop() }
            let request = TransportRequest(method: "POST", url: server.baseURL, body: Data("v".utf8), timeout: 10)
            do {
                let response = try await CurlTransport().send(request)
                Issue.record("\(cut.debugDescription) gave HTTP \(response.statusCode)")
            } catch let error as TransportError {
                #expect(error == .connectionFailed && error.detail == "curl incomplete response", "\(cut.debugDescription)")
                #expect(error.descriptionForMessages == "the connection failed (curl incomplete response)")
            }
        }
        // Headers ended, the connection closed where no length was given: a whole answer.
        let whole = try LoopbackHTTPServer { _ in .raw(Data("HTTP/1.1 204 No Content\r\nX-A: b\r\n\r\n".utf8)) }
        defer { whole.stop() }
        let response = try await CurlTransport().send(TransportRequest(method: "POST", url: whole.baseURL, body: Data(), timeout: 10))
        #expect(response.statusCode == 204 && response.header("X-A") == "b")
    }

    @Test func anAnswerWhoseEndCannotBeKnownFailsAtOnce() async throws {
        // Each head is followed by silence on an open connection: libcurl alone waited
        // for the attempt's timeout (30 s here).
        let unreadable: [(head: String, detail: String?)] = [
            ("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: other\r\n\r\n", "curl switched protocols"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 500\r\n\r\n{\"a\":", "curl unclear content length"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 500, 5\r\n\r\n{\"a\":", "curl unclear content length"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 500\r\ncontent-length:  5 \r\n\r\n{\"a\":", "curl unclear content length"),
            // libcurl itself refuses some values before the header reaches the transport.
            ("HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\n{\"a\":", nil),
        ]
        for (head, detail) in unreadable {
            let server = try LoopbackHTTPServer { _ in .rawThenHang(Data(head.utf8)) }
            defer { server.stop() }
            let started = Date()
            do {
                let response = try await CurlTransport().send(
                    TransportRequest(method: "POST", url: server.baseURL, body: Data("v".utf8), timeout: 30))
                Issue.record("\(head.debugDescription) gave HTTP \(response.statusCode)")
            } catch let error as TransportError {
                #expect(error == .connectionFailed, "\(head.debugDescription)")
                if let detail {
                    #expect(error.detail == detail, "\(head.debugDescription)")
                    #expect(error.descriptionForMessages == "the connection failed (\(detail))")
                }
            }
            // Well before the attempt's 30 s, with room for a loaded test pool.
            #expect(Date().timeIntervalSince(started) < 25, "\(head.debugDescription)")
        }
        // One length given twice, or as a list of the same number, and an interim answer
        // before the final one, whose length is its own: whole answers.
        let readable = [
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
        ]
        for answer in readable {
            let server = try LoopbackHTTPServer { _ in .rawThenHang(Data(answer.utf8)) }
            defer { server.stop() }
            let response = try await CurlTransport().send(TransportRequest(method: "POST", url: server.baseURL, body: Data("v".utf8), timeout: 30))
            #expect(response.statusCode == 200 && response.body == Data("ok".utf8), "\(answer.debugDescription)")
        }
    }

    @Test func connectionsAreKeptAliveAndReused() async throws {
        let server = try LoopbackHTTPServer(keepsConnectionsAlive: true) { _ in .respond(status: 200, headers: [:], body: Data("ok".utf8)) }
        defer { server.stop() }
        let transport = try CurlTransport()
        for _ in 0..<50 {
            #expect(
                try await transport.send(TransportRequest(method: "POST", url: server.baseURL, body: Data("v".utf8), timeout: 10)).statusCode == 200)
        }
        #expect(server.acceptedConnections == 1)
    }

    @Test func concurrentRequestsNeverOpenMoreConnectionsThanTheLimit() async throws {
        let server = try LoopbackHTTPServer(keepsConnectionsAlive: true) { _ in
            usleep(2_000)
            return .respond(status: 200, headers: [:], body: Data("ok".utf8))
        }
        defer { server.stop() }
        var options = CurlTransport.Options()
        options.maximumConnections = 4
        let transport = try CurlTransport(options: options)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<1_000 {
                group.addTask { try await transport.send(TransportRequest(method: "POST", url: server.baseURL, timeout: 60)).statusCode }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 1_000 && statuses.allSatisfy { $0 == 200 })
        #expect(server.peakOpenConnections <= 4)
        #expect(server.acceptedConnections <= 4)
    }

    @Test func aRefusedConnectionIsANetworkFailure() async throws {
        let server = try LoopbackHTTPServer { _ in .hang }
        let url = server.baseURL
        server.stop()
        do {
            _ = try await CurlTransport().send(TransportRequest(method: "POST", url: url, timeout: 10))
            Issue.record("no error")
        } catch let error as TransportError {
            #expect(error == .connectionFailed)
            #expect(error.description == "the connection failed (curl 7)")
        }
    }

    @Test func anUnresolvableNameIsANetworkFailure() async throws {
        do {
            _ = try await CurlTransport().send(TransportRequest(method: "POST", url: URL(string: "http://zeropii-nowhere.invalid/")!, timeout: 20))
            Issue.record("no error")
        } catch let error as TransportError {
            #expect(error == .connectionFailed)
            #expect(error.description == "the connection failed (curl 6)")
        }
    }

    @Test func onlyHTTPAndHTTPSAreSpoken() async throws {
        await #expect(throws: TransportError.connectionFailed) {
            try await CurlTransport().send(TransportRequest(method: "GET", url: URL(string: "file:///etc/passwd")!, timeout: 10))
        }
    }

    @Test func headersThatCouldEndTheirLineAreRefusedBeforeSending() async throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, headers: [:], body: Data()) }
        defer { server.stop() }
        let transport = try CurlTransport()
        for headers in [["X-A": "v\r\nX-Injected: 1"], ["X-A": "v\nw"], ["X-A": "v\u{0}"], ["X A": "v"], ["": "v"], ["X-A:": "v"]] {
            await #expect(throws: TransportError.connectionFailed, "\(headers.keys)") {
                try await transport.send(TransportRequest(method: "POST", url: server.baseURL, headers: headers, timeout: 10))
            }
        }
        #expect(server.acceptedConnections == 0)
    }

    @Test func aSilentServerTimesOutOnTime() async throws {
        let server = try LoopbackHTTPServer { _ in .hang }
        defer { server.stop() }
        let started = Date()
        await #expect(throws: TransportError.timedOut) {
            try await CurlTransport().send(TransportRequest(method: "POST", url: server.baseURL, timeout: 0.5))
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.5 && elapsed < 5, "\(elapsed)")
    }

    @Test func timeoutsOfAnySizeWork() async throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, headers: [:], body: Data("ok".utf8)) }
        defer { server.stop() }
        let transport = try CurlTransport()
        for timeout in [TimeInterval.infinity, 1e300, TimeInterval(Int.max), URLSessionTransport.longestTimeout, 90, 0.001 + 60] {
            #expect(try await transport.send(TransportRequest(method: "POST", url: server.baseURL, timeout: timeout)).statusCode == 200, "\(timeout)")
        }
        for timeout in [0, -1, TimeInterval.nan] {
            await #expect(throws: TransportError.timedOut, "\(timeout)") {
                try await transport.send(TransportRequest(method: "POST", url: server.baseURL, timeout: timeout))
            }
        }
    }

    @Test func cancellingTheTaskEndsTheCallAndClosesTheConnection() async throws {
        let (arrived, continuation) = AsyncStream<Void>.makeStream()
        let server = try LoopbackHTTPServer { _ in
            continuation.yield()
            return .hang
        }
        defer { server.stop() }
        let transport = try CurlTransport()
        let started = Date()
        let task = Task { try await transport.send(TransportRequest(method: "POST", url: server.baseURL, timeout: 60)) }
        var iterator = arrived.makeAsyncIterator()
        _ = await iterator.next()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(Date().timeIntervalSince(started) < 10)
        // The server sees the connection closed (polled: it notices on its own thread).
        let deadline = Date().addingTimeInterval(10)
        while server.connectionsClosedUnanswered == 0 && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(server.connectionsClosedUnanswered == 1)
    }

    @Test func aTaskCancelledBeforeSendingSendsNothing() async throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, headers: [:], body: Data()) }
        defer { server.stop() }
        let transport = try CurlTransport()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(TransportRequest(method: "POST", url: server.baseURL, timeout: 10))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(server.acceptedConnections == 0)
    }

    /// Cancellations and time limits that meet the answer (``EndingRace``).
    @Test func endingsThatMeetTheAnswerEndEachCallOnce() async throws {
        let server = try LoopbackHTTPServer(keepsConnectionsAlive: true) { _ in .respond(status: 200, headers: [:], body: Data("ok".utf8)) }
        defer { server.stop() }
        let tally = try await EndingRace.run(
            try CurlTransport(), url: server.baseURL, cancellations: 1_000, limits: 300, limit: { Double($0 % 3 + 1) * 0.001 })
        #expect(tally.total == 1_300)
        #expect(tally.cancelled > 0)
    }

    /// A call holds its transport; once the last reference goes, the loop's thread
    /// ends and frees the loop (its closure is what holds the loop until then).
    @Test func releasingTheTransportEndsItsThread() async throws {
        let server = try LoopbackHTTPServer(keepsConnectionsAlive: true) { _ in .respond(status: 200, headers: [:], body: Data()) }
        defer { server.stop() }
        weak var loop: CurlMultiLoop?
        do {
            let transport = try CurlTransport()
            loop = transport.loop
            #expect(try await transport.send(TransportRequest(method: "POST", url: server.baseURL, timeout: 10)).statusCode == 200)
        }
        let deadline = Date().addingTimeInterval(10)
        while loop != nil && Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        #expect(loop == nil)
    }

    @Test func invalidOptionsAreRefused() {
        var badPin = CurlTransport.Options()
        badPin.pinnedPublicKeys = ["sha256//not-base64"]
        #expect(throws: CurlTransportSetupError.self) { try CurlTransport(options: badPin) }
        var shortPin = CurlTransport.Options()
        shortPin.pinnedPublicKeys = ["sha256//" + Data(count: 16).base64EncodedString()]
        #expect(throws: CurlTransportSetupError.self) { try CurlTransport(options: shortPin) }
        // The same digest with other unused padding bits: libcurl compares the text, so
        // it could never match.
        var nonCanonicalPin = CurlTransport.Options()
        let canonical = Data(repeating: 1, count: 32).base64EncodedString()
        nonCanonicalPin.pinnedPublicKeys = ["sha256//" + canonical.dropLast(2) + "F="]
        #expect(throws: CurlTransportSetupError.self) { try CurlTransport(options: nonCanonicalPin) }
        nonCanonicalPin.pinnedPublicKeys = ["sha256//" + canonical]
        #expect(throws: Never.self) { try CurlTransport(options: nonCanonicalPin) }
        var noConnections = CurlTransport.Options()
        noConnections.maximumConnections = 0
        #expect(throws: CurlTransportSetupError.self) { try CurlTransport(options: noConnections) }
        var missingFile = CurlTransport.Options()
        missingFile.trustedCertificateAuthorities = "/nonexistent/ca.pem"
        #expect(throws: CurlTransportSetupError.self) { try CurlTransport(options: missingFile) }
    }
}
#endif
