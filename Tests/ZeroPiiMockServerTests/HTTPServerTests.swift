import Foundation
import Testing

@testable import ZeroPiiMockServer

/// Hostile and edge-case HTTP input: each gets the right status or a closed connection,
/// and the server keeps serving others.
struct HTTPServerTests {
    static func makeServer(limits: HTTPServerLimits = HTTPServerLimits()) throws -> HTTPServer {
        try HTTPServer(limits: limits) { request in
            .respond(.json(status: 200, Data("{\"path\":\"\(request.path)\",\"bytes\":\(request.body.count)}".utf8)))
        }
    }

    static let hostileInputs: [(name: String, bytes: String, status: Int?)] = [
        ("garbage", "\u{01}\u{02}\u{03}\u{04}\r\n\r\n", 400),
        ("no method", " / HTTP/1.1\r\n\r\n", 400),
        ("lowercase method", "get / HTTP/1.1\r\n\r\n", 400),
        ("relative target", "GET foo HTTP/1.1\r\n\r\n", 400),
        ("two spaces", "GET  / HTTP/1.1\r\n\r\n", 400),
        ("missing version", "GET /\r\n\r\n", 400),
        ("HTTP/2.0", "GET / HTTP/2.0\r\n\r\n", 505),
        ("not HTTP", "GET / FTP/1.0\r\n\r\n", 400),
        ("header without colon", "GET / HTTP/1.1\r\nHost\r\n\r\n", 400),
        ("space before colon", "GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),
        ("folded header", "GET / HTTP/1.1\r\nX-A: 1\r\n  continued\r\n\r\n", 400),
        ("empty header name", "GET / HTTP/1.1\r\n: value\r\n\r\n", 400),
        ("negative length", "POST / HTTP/1.1\r\nContent-Length: -5\r\n\r\n", 400),
        ("non-numeric length", "POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n", 400),
        ("conflicting lengths", "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
        ("plus-signed length", "POST / HTTP/1.1\r\nContent-Length: +3\r\n\r\nabc", 400),
        ("huge length digits", "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n", 400),
        ("oversized body", "POST / HTTP/1.1\r\nContent-Length: 8388609\r\n\r\n", 413),
        ("chunked", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 501),
        ("bogus chunked", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 501),
        ("chunked and length", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nhello", 400),
        ("POST without length", "POST / HTTP/1.1\r\nHost: x\r\n\r\n", 411),
        ("control byte in header", "GET / HTTP/1.1\r\nX-A: a\u{00}b\r\n\r\n", 400),
        ("DEL in header", "GET / HTTP/1.1\r\nX-A: a\u{7F}b\r\n\r\n", 400),
        ("huge header", "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70_000) + "\r\n\r\n", 431),
        ("endless header line", "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70_000), 431),
        ("many headers", "GET / HTTP/1.1\r\n" + String(repeating: "X-A: 1234567890\r\n", count: 5000) + "\r\n", 431),
        ("bare LF request", "GET / HTTP/1.1\nHost: x\n\n", 400),
        ("half a request then close", "GET / HT", nil),
        ("non-ASCII method", "GÉT / HTTP/1.1\r\n\r\n", 400),
        // A proxy that splits on LF would see chunked; this server must not guess.
        ("smuggling through a bare LF", "POST / HTTP/1.1\r\nHost: x\r\nX: a\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nhello", 400),
        ("bare CR in a header", "GET / HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n", 400),
        ("missing Host", "GET / HTTP/1.1\r\nX-A: 1\r\n\r\n", 400),
        ("two Host headers", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("tab-folded header", "GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n\tcontinued\r\n\r\n", 400),
        ("header name not a token", "GET / HTTP/1.1\r\nHost: x\r\nX(A): 1\r\n\r\n", 400),
        ("header name with a slash", "GET / HTTP/1.1\r\nHost: x\r\nX/A: 1\r\n\r\n", 400),
        ("tab in the request target", "GET /a\tb HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("too many empty lines first", String(repeating: "\r\n", count: 50) + "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ]

    @Test(arguments: hostileInputs.indices)
    func hostileInputGetsTheRightStatusAndTheServerSurvives(index: Int) throws {
        let (name, bytes, status) = Self.hostileInputs[index]
        var limits = HTTPServerLimits()
        limits.requestTimeout = 1
        limits.idleTimeout = 1
        let server = try Self.makeServer(limits: limits)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send(bytes)
        if name == "half a request then close" || name == "bare LF request" {
            shutdown(client.descriptor, Int32(SHUT_WR))
        }
        let reply = client.readUntilClosed()
        if let status {
            #expect(reply.hasPrefix("HTTP/1.1 \(status) "), "\(name): \(reply.prefix(60))")
            #expect(reply.contains("Connection: close"), "\(name)")
        } else {
            #expect(!reply.hasPrefix("HTTP/1.1 200"), "\(name)")
        }
        // The server still serves a well-formed request afterwards.
        let healthy = try RawClient(port: server.port)
        healthy.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(healthy.readResponse()?.status == 200, "\(name)")
    }

    @Test func keepAliveAndPipelining() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send(
            "GET /one HTTP/1.1\r\nHost: x\r\n\r\nPOST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc\r\nGET /three HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        let first = try #require(client.readResponse())
        let second = try #require(client.readResponse())
        let third = try #require(client.readResponse())
        #expect(first.body == #"{"path":"/one","bytes":0}"#)
        #expect(second.body == #"{"path":"/two","bytes":3}"#)
        #expect(third.body == #"{"path":"/three","bytes":0}"#)
        #expect(first.headers["connection"] == "keep-alive")
        #expect(first.headers["date"]?.hasSuffix(" GMT") == true)
        client.send("GET /four HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let last = client.readUntilClosed()
        #expect(last.contains("Connection: close") && last.contains("/four"))
    }

    /// Found from outside (RFC 9110 and 9112): `HEAD` got 405, an absolute-form target
    /// 400, and `Expect: 100-continue` no answer, so curl waited its timeout.
    @Test func headAbsoluteFormAndExpectContinue() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let head = try RawClient(port: server.port)
        head.send("HEAD /h HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = head.readUntilClosed()
        let expectedLength = #"{"path":"/h","bytes":0}"#.utf8.count
        #expect(reply.hasPrefix("HTTP/1.1 200 "))
        #expect(reply.contains("Content-Length: \(expectedLength)\r\n"))
        #expect(reply.hasSuffix("\r\n\r\n"), "no body after the head: \(reply)")

        let absolute = try RawClient(port: server.port)
        absolute.send("GET http://x:8080/abs?q=1 HTTP/1.1\r\nHost: x\r\n\r\nGET HTTPS://x HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(absolute.readResponse()?.body == #"{"path":"/abs","bytes":0}"#)
        #expect(absolute.readResponse()?.body == #"{"path":"/","bytes":0}"#)

        let expecting = try RawClient(port: server.port)
        expecting.send("POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
        #expect(expecting.readResponse()?.status == 100)
        expecting.send("abc")
        let answer = try #require(expecting.readResponse())
        #expect(answer.status == 200 && answer.body == #"{"path":"/e","bytes":3}"#)
        // A body sent along with the head gets no interim answer.
        expecting.send("POST /f HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\nok")
        #expect(expecting.readResponse()?.body == #"{"path":"/f","bytes":2}"#)
    }

    @Test func aClientSendingOneByteAtATimeIsCutOff() throws {
        var limits = HTTPServerLimits()
        limits.requestTimeout = 1
        let server = try Self.makeServer(limits: limits)
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        let started = Date()
        for byte in "GET / HTTP/1.1\r\nHost: slow".utf8 {
            slow.send(Data([byte]))
            if Date().timeIntervalSince(started) > 1.5 { break }
            usleep(100_000)
        }
        let reply = slow.readUntilClosed()
        #expect(reply.hasPrefix("HTTP/1.1 408 "))
        let other = try RawClient(port: server.port)
        other.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(other.readResponse()?.status == 200)
    }

    @Test func manyConcurrentConnections() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let failures = NSLock()
        nonisolated(unsafe) var failed = 0
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            guard let client = try? RawClient(port: server.port) else { failures.withLock { failed += 1 }; return }
            client.send("GET /c\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            if client.readResponse()?.body != "{\"path\":\"/c\(index)\",\"bytes\":0}" { failures.withLock { failed += 1 } }
        }
        #expect(failed == 0)
    }
}
