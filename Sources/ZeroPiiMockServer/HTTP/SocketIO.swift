import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin, portable wrappers over the POSIX socket calls the server needs.
enum SocketIO {
    #if canImport(Glibc)
    static let streamType = Int32(SOCK_STREAM.rawValue)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    static let dontWait = Int32(MSG_DONTWAIT)
    #else
    static let dontWait = MSG_DONTWAIT
    static let streamType = SOCK_STREAM
    static let sendFlags: Int32 = 0
    #endif

    enum ReadResult {
        case bytes(Int)
        case closed
        case timedOut
    }

    /// Creates a listening socket on `host:port` (IPv4) and returns it with the port
    /// actually bound (useful with port 0).
    static func listen(host: String, port: UInt16) throws -> (socket: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            close(descriptor)
            throw POSIXError(.EINVAL)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, startListening(descriptor) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EADDRINUSE
            close(descriptor)
            throw POSIXError(code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    private static func startListening(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.listen(descriptor, 512)
        #else
        return Darwin.listen(descriptor, 512)
        #endif
    }

    /// Prepares an accepted connection: no SIGPIPE on write (Darwin), no Nagle delay.
    static func configure(connection: Int32) {
        var one: Int32 = 1
        #if canImport(Darwin)
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Reads what is available, waiting at most until `deadline`.
    static func read(_ connection: Int32, into buffer: UnsafeMutableRawBufferPointer, deadline: Date) -> ReadResult {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return .timedOut }
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .closed
            }
            if ready == 0 { continue }
            let count = recv(connection, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return .closed
        }
    }

    enum WriteResult {
        case written
        case closed
        case timedOut
    }

    /// Writes all of `bytes`, waiting for the socket to accept them at most until
    /// `deadline`: a peer that stops reading cannot hold the calling thread longer.
    static func write(_ connection: Int32, _ bytes: Data, deadline: Date) -> WriteResult {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = send(connection, raw.baseAddress! + offset, raw.count - offset, sendFlags | dontWait)
                if written >= 0 {
                    offset += written
                    continue
                }
                if errno == EINTR { continue }
                guard errno == EAGAIN || errno == EWOULDBLOCK else { return .closed }
                let remaining = deadline.timeIntervalSinceNow
                if remaining <= 0 { return .timedOut }
                var descriptor = pollfd(fd: connection, events: Int16(POLLOUT), revents: 0)
                if poll(&descriptor, 1, Int32(min(remaining, 1) * 1000) + 1) < 0 && errno != EINTR { return .closed }
            }
            return .written
        }
    }

    /// The client's IPv4 address as text, from an `accept` address.
    static func addressText(_ address: sockaddr_in) -> String {
        var address = address.sin_addr
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil else { return "" }
        return String(cString: text)
    }

    /// Accepts one connection, with the peer's address.
    static func accept(_ listener: Int32) -> HTTPServer.AcceptOutcome {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let connection = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemAccept(listener, $0, &length) }
        }
        guard connection >= 0 else { return .failure(errno: errno) }
        return .connection(connection, address: addressText(address))
    }

    private static func systemAccept(_ listener: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t) -> Int32 {
        #if canImport(Glibc)
        return Glibc.accept(listener, address, &length)
        #else
        return Darwin.accept(listener, address, &length)
        #endif
    }
}
