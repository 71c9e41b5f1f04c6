import Foundation
import Testing
import ZeroPiiTestHelpers

@testable import ZeroPiiMockServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client cannot lock the others out: idle connections give way to new ones, an
/// address holds a bounded share of the slots, and a connection that sends nothing is
/// closed at the first-byte deadline. Other clients are played from other loopback
/// addresses (127.0.0.2, 127.0.0.3), which Linux routes without setup (macOS has only
/// 127.0.0.1 unless configured, so the suite is Linux's).
#if os(Linux)
struct ConnectionFairnessTests {
    static func limits(total: Int, perAddress: Int) -> HTTPServerLimits {
        var limits = HTTPServerLimits()
        limits.maximumConnections = total
        limits.maximumConnectionsPerAddress = perAddress
        // Nothing may expire while the test waits: in the full suite a test can wait
        // minutes for a thread of the cooperative pool.
        limits.firstByteTimeout = 3600
        limits.idleTimeout = 3600
        limits.requestTimeout = 3600
        return limits
    }

    /// Opens `count` connections from `source` that send nothing, and waits until the
    /// server has taken them all in (it accepts on a thread of its own).
    static func idle(_ count: Int, from source: String, to server: HTTPServer, expecting held: Int) async throws -> [RawClient] {
        let clients = try (0..<count).map { _ in try RawClient(port: server.port, from: source) }
        try await waitUntil("the server holds \(held) connections from \(source)") { server.connectionCount(from: source) == held }
        return clients
    }

    @Test func anAddressAtItsLimitGivesUpItsOwnIdleConnectionsAndOthersAreServed() async throws {
        let server = try HTTPServerTests.makeServer(limits: Self.limits(total: 1024, perAddress: 4))
        defer { server.stop() }
        var hog: [RawClient] = []
        for opened in 1...10 {
            hog += try await Self.idle(1, from: "127.0.0.1", to: server, expecting: min(opened, 4))
        }
        // The six oldest gave way, closed without an answer; the four newest are held.
        for shed in hog.prefix(6) { #expect(shed.readUntilClosed() == "") }
        #expect(server.connectionCount(from: "127.0.0.1") == 4)
        let other = try RawClient(port: server.port, from: "127.0.0.2")
        other.send("GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(other.readResponse()?.body == #"{"path":"/other","bytes":0}"#)
        #expect(server.statistics.refusedConnections == 0)
        #expect(server.statistics.admittedConnections == 11)
        #expect((5...11).contains(server.statistics.peakOpenConnections))
    }

    @Test func aFullServerMakesRoomFromTheAddressThatHoldsTheMost() async throws {
        let server = try HTTPServerTests.makeServer(limits: Self.limits(total: 6, perAddress: 6))
        defer { server.stop() }
        let hog = try await Self.idle(5, from: "127.0.0.1", to: server, expecting: 5)
        let modest = try await Self.idle(1, from: "127.0.0.3", to: server, expecting: 1)
        let newcomer = try RawClient(port: server.port, from: "127.0.0.2")
        newcomer.send("GET /new HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(newcomer.readResponse()?.status == 200)
        #expect(hog[0].readUntilClosed() == "", "the hog's longest-idle connection gave way")
        #expect(server.connectionCount(from: "127.0.0.1") == 4)
        #expect(server.connectionCount(from: "127.0.0.3") == 1)
        _ = modest
    }

    /// An outside attack: with every slot taken, the attackers' connections busy and one
    /// small client idle between keep-alive requests, a newcomer from an attacker's
    /// address closed that client's connection instead of getting 503.
    @Test func busyConnectionsNeverPushOutASmallerClientsIdleOne() async throws {
        let server = try HTTPServerTests.makeServer(limits: Self.limits(total: 7, perAddress: 7))
        defer { server.stop() }
        let client = try RawClient(port: server.port, from: "127.0.0.1")
        client.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        var attackers = try await Self.idle(3, from: "127.0.0.2", to: server, expecting: 3)
        attackers += try await Self.idle(3, from: "127.0.0.3", to: server, expecting: 3)
        for attacker in attackers { attacker.send("G") }
        try await waitUntil("the attackers are mid-request and the client idle") { server.idleConnectionCount == 1 }
        let newcomer = try RawClient(port: server.port, from: "127.0.0.3")
        #expect(newcomer.readUntilClosed().hasPrefix("HTTP/1.1 503 "))
        client.send("GET /second HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.body == #"{"path":"/second","bytes":0}"#, "the client's connection stayed open")
        #expect(server.statistics.refusedConnections == 1)
    }

    @Test func busyConnectionsAreNeverShedAndTheNewcomerIsRefused() async throws {
        let server = try HTTPServerTests.makeServer(limits: Self.limits(total: 2, perAddress: 2))
        defer { server.stop() }
        let busy = try await Self.idle(2, from: "127.0.0.1", to: server, expecting: 2)
        for client in busy { client.send("GET /busy HTTP/1.1\r\n") }
        try await waitUntil("both connections are mid-request") { server.idleConnectionCount == 0 }
        let newcomer = try RawClient(port: server.port, from: "127.0.0.2")
        let refusal = newcomer.readUntilClosed()
        #expect(refusal.hasPrefix("HTTP/1.1 503 "))
        #expect(refusal.contains("too_many_connections"))
        #expect(server.statistics.refusedConnections == 1)
        for client in busy {
            client.send("Host: x\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
    }

    @Test func aConnectionThatSendsNothingIsClosedAtTheFirstByteDeadline() throws {
        var limits = HTTPServerLimits()
        limits.firstByteTimeout = 0.5
        let server = try HTTPServer(limits: limits) { _ in .respond(.json(status: 200, Data("{}".utf8))) }
        defer { server.stop() }
        let silent = try RawClient(port: server.port)
        let started = Date()
        #expect(silent.readUntilClosed() == "")
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.4 && waited < 8, "closed after \(waited) s")

        // After its first request a connection waits the idle timeout (30 s), not 0.5 s.
        let active = try RawClient(port: server.port)
        active.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(active.readResponse()?.status == 200)
        var descriptor = pollfd(fd: active.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 1_500) == 0, "still open and quiet after 1.5 s")
        active.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(active.readResponse()?.status == 200)
    }
}
#endif
