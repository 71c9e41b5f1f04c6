import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for the transport tests: one request per
/// connection unless asked to keep connections alive, `Content-Length` bodies, answers chosen by the test.
/// It counts connections, so tests can see reuse, the most open at once, and a client
/// closing a connection whose request it had not answered.
final class LoopbackHTTPServer: @unchecked Sendable {
    enum Answer {
        case respond(status: Int, headers: [String: String], body: Data)
        /// Accept the request and never answer (until the server stops).
        case hang
        /// Send the status line, a `Content-Length` of `declaredLength` and `body`, then
        /// nothing more (until the client gives up or the server stops).
        case partial(status: Int, declaredLength: Int, body: Data)
        /// Read the request and close the connection without a word, as a server that
        /// crashed or timed the connection out after reading would.
        case close
        /// Send these bytes as they are, then close the connection.
        case raw(Data)
        /// Send these bytes as they are, then nothing more (until the client gives up or
        /// the server stops).
        case rawThenHang(Data)
    }

    struct Received {
        let method: String
        let path: String
        let headers: [String: String]
        let body: Data
    }

    let port: UInt16
    private let listener: Int32
    private let answer: @Sendable (Received) -> Answer
    private let lock = NSLock()
    private var requests = 0
    private var hanging: [Int32] = []
    private var stopped = false
    private var accepted = 0
    private var open = 0
    private var peakOpen = 0
    private var closedUnanswered = 0

    /// Requests read so far, whatever their answer.
    var receivedRequests: Int { lock.withLock { requests } }
    /// Connections accepted so far.
    var acceptedConnections: Int { lock.withLock { accepted } }
    /// The most connections that were open at once.
    var peakOpenConnections: Int { lock.withLock { peakOpen } }
    /// Connections the client closed while their request waited for an answer (`.hang`).
    var connectionsClosedUnanswered: Int { lock.withLock { closedUnanswered } }

    /// Whether a connection stays open for further requests after an answer (the
    /// default closes it after one).
    private let keepsConnectionsAlive: Bool

    init(keepsConnectionsAlive: Bool = false, answer: @escaping @Sendable (Received) -> Answer) throws {
        self.answer = answer
        self.keepsConnectionsAlive = keepsConnectionsAlive
        let listener = socket(AF_INET, Self.streamType, 0)
        self.listener = listener
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Stops the server. The listener is closed only after its accept loop has ended:
    /// a number closed while that loop could still call `accept` with it may already
    /// belong to the next test's listener, whose connections this server's answers
    /// would then take (a silent server once answered 200 that way).
    func stop() {
        let sockets: [Int32]? = lock.withLock {
            guard !stopped else { return nil }
            stopped = true
            defer { hanging.removeAll() }
            return hanging
        }
        guard let sockets else { return }
        // Shut down, not closed: each one's thread is reading it and closes it.
        sockets.forEach { _ = shutdown($0, Int32(SHUT_RDWR)) }
        shutdown(listener, Int32(SHUT_RDWR))
        acceptLoopEnded.wait()
        close(listener)
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let streamType = SOCK_STREAM
    #endif

    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    private func acceptLoop() {
        defer { acceptLoopEnded.signal() }
        while true {
            // Polled with a short timeout, so `stop()` ends the loop on every platform
            // (shutting a listener down does not wake `accept` on Darwin).
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if lock.withLock({ stopped }) { return }
            if ready <= 0 { continue }
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if lock.withLock({ stopped }) { return }
                continue
            }
            lock.withLock {
                accepted += 1
                open += 1
                peakOpen = max(peakOpen, open)
            }
            Thread.detachNewThread { [self] in
                serve(connection)
                lock.withLock { open -= 1 }
                close(connection)
            }
        }
    }

    private func serve(_ connection: Int32) {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            var headerEnd = Self.find([13, 10, 13, 10], in: buffer)
            while headerEnd == nil {
                let count = read(connection, &chunk, chunk.count)
                if count <= 0 { return }
                buffer += chunk[0..<count]
                headerEnd = Self.find([13, 10, 13, 10], in: buffer)
            }
            let head = String(decoding: buffer[0..<headerEnd!], as: UTF8.self).components(separatedBy: "\r\n")
            let requestLine = head[0].split(separator: " ")
            var headers: [String: String] = [:]
            for line in head.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let bodyLength = Int(headers["content-length"] ?? "0") ?? 0
            buffer.removeFirst(headerEnd! + 4)
            while buffer.count < bodyLength {
                let count = read(connection, &chunk, chunk.count)
                if count <= 0 { break }
                buffer += chunk[0..<count]
            }
            let body = Array(buffer.prefix(bodyLength))
            buffer.removeFirst(body.count)
            let received = Received(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: Data(body))
            lock.withLock { requests += 1 }
            var answer = answer(received)
            if case .partial(let status, let declaredLength, let partialBody) = answer {
                let head = "HTTP/1.1 \(status) Status\r\nContent-Length: \(declaredLength)\r\n\r\n"
                Self.send(Array(head.utf8) + Array(partialBody), on: connection)
                answer = .hang
            }
            if case .rawThenHang(let bytes) = answer {
                Self.send(Array(bytes), on: connection)
                answer = .hang
            }
            switch answer {
            case .partial, .close, .rawThenHang:
                return
            case .raw(let bytes):
                Self.send(Array(bytes), on: connection)
                return
            case .hang:
                let alreadyStopped = lock.withLock { () -> Bool in
                    if !stopped { hanging.append(connection) }
                    return stopped
                }
                if alreadyStopped { return }
                // Waits for the client to give up (or `stop()`), and counts the first.
                while read(connection, &chunk, chunk.count) > 0 {}
                lock.withLock {
                    if !stopped {
                        closedUnanswered += 1
                        hanging.removeAll { $0 == connection }
                    }
                }
                return
            case .respond(let status, let responseHeaders, let responseBody):
                var text = "HTTP/1.1 \(status) Status\r\nContent-Length: \(responseBody.count)\r\n"
                text += keepsConnectionsAlive ? "" : "Connection: close\r\n"
                for (name, value) in responseHeaders { text += "\(name): \(value)\r\n" }
                text += "\r\n"
                Self.send(Array(text.utf8) + Array(responseBody), on: connection)
                guard keepsConnectionsAlive else { return }
            }
        }
    }

    private static func send(_ bytes: [UInt8], on connection: Int32) {
        #if canImport(Glibc)
        _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #else
        _ = bytes.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        #endif
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
            return start
        }
        return nil
    }
}
