import Foundation
import ZeroPiiModels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server over POSIX sockets: keep-alive, pipelining, `Content-Length`
/// bodies, idle and slow-client timeouts, and hard limits on header and body sizes.
///
/// Each connection is served on its own thread, which keeps the code simple and lets
/// one slow or hostile client block nothing but itself. Malformed or oversized
/// requests get 400, 411, 413, 431, 501 or 505 and a closed connection; they never
/// crash the server.
public final class HTTPServer: @unchecked Sendable {
    // Sendable: mutable state is guarded by `lock`; the rest is immutable.
    /// Turns one request into a response (called on the connection's thread).
    public typealias Handler = @Sendable (ServerRequest) -> ServerAction

    private let handler: Handler
    private let limits: HTTPServerLimits
    private let listener: Int32
    /// The port the server listens on (the one picked by the system when 0 was asked for).
    public let port: UInt16
    /// The address the server is bound to.
    public let host: String

    private let lock = NSLock()
    private var connections: Set<Int32> = []
    private var running = true
    private let acceptThreadDone = DispatchSemaphore(value: 0)

    /// Binds and starts serving at once.
    /// - Parameters:
    ///   - host: an IPv4 address; `127.0.0.1` keeps the server private to this machine.
    ///   - port: the port, or 0 for any free one (see ``port``).
    ///   - limits: connection, size and time limits (see ``HTTPServerLimits``).
    ///   - handler: answers each complete request; called on the connection's thread.
    /// - Throws: A `POSIXError` when the address is not IPv4 or cannot be bound.
    public init(host: String = "127.0.0.1", port: UInt16 = 0, limits: HTTPServerLimits = HTTPServerLimits(), handler: @escaping Handler) throws {
        self.handler = handler
        self.limits = limits
        self.host = host
        (listener, self.port) = try SocketIO.listen(host: host, port: port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "zeropii-accept"
        thread.start()
    }

    /// Stops accepting, closes every open connection and waits for the accept loop to end.
    public func stop() {
        // File descriptor numbers are reused as soon as they are closed, so nothing is
        // closed here while another thread could still use its number: connections are
        // shut down under the lock (their threads close them), and the listener is shut
        // down first and closed only after the accept loop has ended.
        let wasRunning: Bool = lock.withLock {
            guard running else { return false }
            running = false
            for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
            return true
        }
        guard wasRunning else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        acceptThreadDone.wait()
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        defer { acceptThreadDone.signal() }
        while true {
            // Polling with a short timeout lets `stop()` end the loop on every platform
            // (shutting down a listening socket does not wake `accept` on Darwin).
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 200)
            if !lock.withLock({ running }) { return }
            if ready <= 0 { continue }
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if !lock.withLock({ running }) { return }
                if errno == EMFILE || errno == ENFILE { usleep(10_000); continue }
                return
            }
            SocketIO.configure(connection: connection)
            let admitted: Bool = lock.withLock {
                guard running, connections.count < limits.maximumConnections else { return false }
                connections.insert(connection)
                return true
            }
            guard admitted else {
                _ = SocketIO.write(
                    connection, Self.serialize(Self.errorResponse(503, "too_many_connections", "the server is at its connection limit"), close: true))
                close(connection)
                continue
            }
            let thread = Thread { [self] in
                serve(connection)
                lock.withLock { _ = connections.remove(connection) }
                close(connection)
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    // MARK: One connection

    private func serve(_ connection: Int32) {
        var parser = HTTPRequestParser(limits: limits)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            // Waiting for the first byte of a request is bounded by the idle timeout;
            // once it has started, the whole request must arrive within the request timeout.
            var deadline = Date().addingTimeInterval(parser.hasBufferedBytes ? limits.requestTimeout : limits.idleTimeout)
            var request: ServerRequest?
            while request == nil {
                switch parser.next() {
                case .request(let parsed):
                    request = parsed
                case .failure(let status, let code, let message):
                    _ = SocketIO.write(connection, Self.serialize(Self.errorResponse(status, code, message), close: true))
                    return
                case .needMore:
                    let result = chunk.withUnsafeMutableBytes { SocketIO.read(connection, into: $0, deadline: deadline) }
                    switch result {
                    case .bytes(let count):
                        if !parser.hasBufferedBytes {
                            deadline = Date().addingTimeInterval(limits.requestTimeout)
                        }
                        parser.append(chunk[0..<count])
                    case .closed:
                        return
                    case .timedOut:
                        if parser.hasBufferedBytes {
                            _ = SocketIO.write(
                                connection,
                                Self.serialize(Self.errorResponse(408, "request_timeout", "the request took too long to arrive"), close: true))
                        }
                        return
                    }
                }
            }
            guard let request, lock.withLock({ running }) else { return }
            let keepAlive = parser.keepsAlive
            switch handler(request) {
            case .closeWithoutResponse:
                return
            case .respond(let response):
                guard SocketIO.write(connection, Self.serialize(response, close: !keepAlive)), keepAlive else { return }
            }
        }
    }

    // MARK: Responses

    /// An error answer with the protocol's error body (PROTOCOL.md section 6).
    static func errorResponse(_ status: Int, _ code: String, _ message: String) -> ServerResponse {
        let body = (try? JSONEncoder().encode(WireBodies.ErrorResponse(code: code, message: message))) ?? Data()
        return .json(status: status, body)
    }

    /// The response as bytes, with `Date`, `Content-Length` and `Connection` set.
    static func serialize(_ response: ServerResponse, close: Bool) -> Data {
        var head = "HTTP/1.1 \(response.status) \(HTTPStatusText.phrase(for: response.status))\r\n"
        head += "Date: \(HTTPDate.string(from: Date()))\r\n"
        head += "Content-Length: \(response.body.count)\r\n"
        head += close ? "Connection: close\r\n" : "Connection: keep-alive\r\n"
        for (name, value) in response.headers {
            head += "\(name): \(value)\r\n"
        }
        head += "\r\n"
        var data = Data(head.utf8)
        data.append(response.body)
        return data
    }
}
