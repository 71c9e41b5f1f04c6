import Foundation
import ZeroPiiLocking
import ZeroPiiModels
import ZeroPiiWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server over POSIX sockets: keep-alive, pipelining, `Content-Length`
/// bodies, request, idle and write deadlines, hard limits on header and body sizes and a
/// server-wide memory budget for bodies (see ``HTTPServerLimits``).
///
/// Each connection is served on its own thread, which keeps the code simple and lets
/// one slow or hostile client block nothing but itself: every wait on a client (for a
/// request, between requests, for it to take a response) has a deadline. Malformed or
/// oversized requests get 400, 411, 413, 431, 501, 503 or 505 and a closed connection;
/// they never crash the server, and no error of `accept` stops it.
public final class HTTPServer: Sendable {
    /// Turns one request into a response (called on the connection's thread).
    public typealias Handler = @Sendable (ServerRequest) -> ServerAction

    /// What one call of `accept` gave: a connection and its peer's address, or an errno.
    enum AcceptOutcome {
        case connection(Int32, address: String)
        case failure(errno: Int32)
    }

    private let handler: Handler
    /// Told of each request the HTTP layer itself answered with an error (400, 408, 431,
    /// 503, ...): its status and when it began. For the request log.
    public typealias RejectionObserver = @Sendable (_ status: Int, _ started: Date) -> Void
    private let rejected: RejectionObserver?
    private let limits: HTTPServerLimits
    private let listener: Int32
    private let acceptConnection: @Sendable (Int32) -> AcceptOutcome
    /// The port the server listens on (the one picked by the system when 0 was asked for).
    public let port: UInt16
    /// The address the server is bound to.
    public let host: String
    /// Timeouts, accept errors and the memory budget.
    public let statistics: HTTPServerStatistics

    private struct State {
        var connections = ConnectionTable()
        var running = true
    }

    private let state = Locked(State())
    private let acceptThreadDone = DispatchSemaphore(value: 0)

    /// Binds and starts serving at once.
    /// - Parameters:
    ///   - host: an IPv4 address; `127.0.0.1` keeps the server private to this machine.
    ///   - port: the port, or 0 for any free one (see ``port``).
    ///   - limits: connection, size, time and memory limits (see ``HTTPServerLimits``).
    ///   - statistics: where the server counts what it defended against; a fresh one by default.
    ///   - rejected: told of each request the HTTP layer answered with an error itself.
    ///   - handler: answers each complete request; called on the connection's thread.
    /// - Throws: A `POSIXError` when the address is not IPv4 or cannot be bound.
    public convenience init(
        host: String = "127.0.0.1", port: UInt16 = 0, limits: HTTPServerLimits = HTTPServerLimits(),
        statistics: HTTPServerStatistics = HTTPServerStatistics(), rejected: RejectionObserver? = nil, handler: @escaping Handler
    ) throws {
        try self.init(
            host: host, port: port, limits: limits, statistics: statistics, acceptConnection: { SocketIO.accept($0) }, rejected: rejected,
            handler: handler)
    }

    /// The designated initialiser; tests pass an `acceptConnection` that fails on demand.
    init(
        host: String, port: UInt16, limits: HTTPServerLimits, statistics: HTTPServerStatistics,
        acceptConnection: @escaping @Sendable (Int32) -> AcceptOutcome, rejected: RejectionObserver? = nil, handler: @escaping Handler
    ) throws {
        self.handler = handler
        self.rejected = rejected
        self.limits = limits
        self.host = host
        self.statistics = statistics
        self.acceptConnection = acceptConnection
        (listener, self.port) = try SocketIO.listen(host: host, port: port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "zeropii-accept"
        thread.start()
    }

    /// How many connections `address` holds open.
    func connectionCount(from address: String) -> Int {
        state.withLock { $0.connections.count(from: address) }
    }

    /// How many open connections wait for a request (the ones that may give way).
    var idleConnectionCount: Int {
        state.withLock { $0.connections.idleCount }
    }

    /// Stops accepting, closes every open connection and waits for the accept loop to end.
    public func stop() {
        // File descriptor numbers are reused as soon as they are closed, so nothing is
        // closed here while another thread could still use its number: connections are
        // shut down under the lock (their threads close them), and the listener is shut
        // down first and closed only after the accept loop has ended.
        let wasRunning: Bool = state.withLock { state in
            guard state.running else { return false }
            state.running = false
            for connection in state.connections.descriptors { shutdown(connection, Int32(SHUT_RDWR)) }
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
        var backOff: UInt32 = 0
        while true {
            // Polling with a short timeout lets `stop()` end the loop on every platform
            // (shutting down a listening socket does not wake `accept` on Darwin).
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 200)
            if !state.withLock({ $0.running }) { return }
            if ready <= 0 { continue }
            let connection: Int32
            let address: String
            switch acceptConnection(listener) {
            case .connection(let accepted, let peer):
                (connection, address) = (accepted, peer)
                backOff = 0
            case .failure(let code):
                if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { continue }
                if !state.withLock({ $0.running }) { return }
                // Every other error (ECONNABORTED, EPROTO, ENOBUFS, ENOMEM, EMFILE, ENFILE,
                // ...) is a passing condition of the system or of one client: count it,
                // back off briefly (5 ms, doubling to 0.5 s while it lasts) and go on.
                statistics.recordAcceptError()
                backOff = min(max(backOff * 2, 5_000), 500_000)
                usleep(backOff)
                continue
            }
            SocketIO.configure(connection: connection)
            let admitted: Bool = state.withLock { state in
                guard state.running else { return false }
                switch state.connections.admit(connection, from: address, limits: limits, now: Date()) {
                case .refused:
                    return false
                case .admitted(let shed):
                    // Still open (its thread closes it after leaving the table), so the
                    // number cannot belong to another connection yet.
                    if let shed { shutdown(shed, Int32(SHUT_RDWR)) }
                    statistics.recordAdmittedConnection(open: state.connections.count)
                    return true
                }
            }
            if !admitted { statistics.recordRefusedConnection() }
            guard admitted else {
                // A fresh socket takes this small answer at once; the short deadline only
                // guards the accept thread against the unexpected.
                let response = Self.errorResponse(503, "too_many_connections", "the server is at its connection limit")
                _ = SocketIO.write(connection, Self.serialize(response, close: true), deadline: Date().addingTimeInterval(0.1))
                close(connection)
                continue
            }
            let thread = Thread { [self] in
                let cpuAtStart = Self.threadCPUSeconds()
                serve(connection, address: address)
                state.withLock { $0.connections.remove(connection) }
                close(connection)
                statistics.recordClosedConnection(cpuSeconds: Self.threadCPUSeconds() - cpuAtStart)
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    // MARK: One connection

    private func serve(_ connection: Int32, address: String) {
        var parser = HTTPRequestParser(limits: limits, budget: statistics)
        defer { parser.releaseBudget() }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var firstRequest = true
        while true {
            // Waiting for a request is bounded by the idle timeout, or by the shorter
            // first-byte timeout on a new connection. From its first byte on (empty lines
            // before it included) the whole request must arrive within the request
            // timeout, which is set once and never extended by more bytes.
            var midRequest = parser.isMidRequest
            var started = Date()
            let waitLimit = firstRequest ? limits.firstByteTimeout : limits.idleTimeout
            var deadline = started.addingTimeInterval(midRequest ? limits.requestTimeout : waitLimit)
            firstRequest = false
            // A connection waiting for a request may give way to a new one (see ConnectionTable).
            guard mark(connection, idle: !midRequest) else { return }
            var request: ServerRequest?
            while request == nil {
                switch parser.next() {
                case .request(let parsed):
                    request = parsed
                case .failure(let status, let code, let message):
                    rejected?(status, started)
                    var response = Self.errorResponse(status, code, message)
                    if status == 503 { response.headers.append(("Retry-After", "1")) }
                    _ = write(connection, Self.serialize(response, close: true))
                    return
                case .needMore:
                    if parser.takeContinue() {
                        guard write(connection, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
                    }
                    let result = chunk.withUnsafeMutableBytes { SocketIO.read(connection, into: $0, deadline: deadline) }
                    switch result {
                    case .bytes(let count):
                        if !midRequest {
                            guard mark(connection, idle: false) else { return }
                            midRequest = true
                            started = Date()
                            deadline = started.addingTimeInterval(limits.requestTimeout)
                        }
                        parser.append(chunk[0..<count])
                    case .closed:
                        return
                    case .timedOut:
                        if midRequest {
                            statistics.recordRequestTimeout()
                            rejected?(408, started)
                            let response = Self.errorResponse(408, "request_timeout", "the request took too long to arrive")
                            _ = write(connection, Self.serialize(response, close: true))
                        }
                        return
                    }
                }
            }
            guard var request, state.withLock({ $0.running }) else { return }
            // HEAD is answered as GET would be (RFC 9110 section 9.3.2), without the body.
            let headOnly = request.method == "HEAD"
            if headOnly {
                request = ServerRequest(method: "GET", path: request.path, query: request.query, headers: request.headers, body: request.body)
            }
            request.remoteAddress = address
            let keepAlive = parser.keepsAlive
            switch handler(request) {
            case .closeWithoutResponse:
                return
            case .respond(let response):
                let sent = write(connection, Self.serialize(response, close: !keepAlive, headOnly: headOnly))
                parser.releaseBudget()
                guard sent, keepAlive else { return }
            }
        }
    }

    /// Records whether `connection` waits for a request; false when it was shed meanwhile.
    private func mark(_ connection: Int32, idle: Bool) -> Bool {
        state.withLock { $0.connections.mark(connection, idle: idle, now: Date()) }
    }

    /// Sends `bytes` within the write timeout; false when the connection must be closed.
    private func write(_ connection: Int32, _ bytes: Data) -> Bool {
        switch SocketIO.write(connection, bytes, deadline: Date().addingTimeInterval(limits.writeTimeout)) {
        case .written:
            return true
        case .closed:
            return false
        case .timedOut:
            statistics.recordWriteTimeout()
            return false
        }
    }

    /// CPU time used so far by the calling thread, in seconds.
    private static func threadCPUSeconds() -> TimeInterval {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9
    }

    // MARK: Responses

    /// An error answer with the protocol's error body (Docs/Protocol.md section 6).
    static func errorResponse(_ status: Int, _ code: String, _ message: String) -> ServerResponse {
        let body = WireBodies.ErrorResponse(code: code, message: message).wireJSON
        return .json(status: status, body)
    }

    /// Whether `text` may stand in a response header: visible ASCII, spaces and tabs only.
    static func isSafeHeaderField(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) }
    }

    /// The response as bytes, with `Date`, `Content-Length` and `Connection` set; with
    /// `headOnly` (an answer to HEAD) without the body, `Content-Length` still its size.
    static func serialize(_ response: ServerResponse, close: Bool, headOnly: Bool = false) -> Data {
        var head = "HTTP/1.1 \(response.status) \(HTTPStatusText.phrase(for: response.status))\r\n"
        head += "Date: \(HTTPDate.string(from: Date()))\r\n"
        head += "Content-Length: \(response.body.count)\r\n"
        head += close ? "Connection: close\r\n" : "Connection: keep-alive\r\n"
        // A header with a line break or another control byte in it would end the head
        // early and let its text act as headers or a body of its own: never written.
        for (name, value) in response.headers where Self.isSafeHeaderField(name) && Self.isSafeHeaderField(value) {
            head += "\(name): \(value)\r\n"
        }
        head += "\r\n"
        var data = Data(head.utf8)
        if !headOnly { data.append(response.body) }
        return data
    }
}
