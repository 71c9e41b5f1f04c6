import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP client that sends exactly the bytes a test gives it, for hostile-input tests.
final class RawClient {
    let descriptor: Int32

    /// Connects to 127.0.0.1:`port`, from `source` when given (another loopback address,
    /// such as 127.0.0.2, to play a second client machine).
    init(port: UInt16, from source: String? = nil) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(descriptor)
                throw POSIXError(.EADDRNOTAVAIL)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    private func Glibc_send(_ socket: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        #if canImport(Glibc)
        return Glibc.send(socket, buffer, count, flags)
        #else
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        return Darwin.send(socket, buffer, count, flags)
        #endif
    }

    func send(_ text: String) { send(Data(text.utf8)) }

    func send(_ data: Data) {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        // The server may close first (that is what many tests provoke): no SIGPIPE.
        _ = data.withUnsafeBytes { Glibc_send(descriptor, $0.baseAddress, $0.count, flags) }
    }

    /// Everything the server sends until it closes the connection (or 10 s pass).
    func readUntilClosed() -> String {
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count <= 0 { break }
            received.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Reads one response with a `Content-Length` body, leaving the connection open.
    func readResponse() -> (status: Int, headers: [String: String], body: String)? {
        var received = [UInt8]()
        var byte: UInt8 = 0
        while !(received.count >= 4 && received.suffix(4) == [13, 10, 13, 10]) {
            guard read(descriptor, &byte, 1) == 1 else { return nil }
            received.append(byte)
        }
        let lines = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        var body = [UInt8](repeating: 0, count: Int(headers["content-length"] ?? "0") ?? 0)
        var offset = 0
        while offset < body.count {
            let count = body[offset...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return nil }
            offset += count
        }
        return (status, headers, String(decoding: body, as: UTF8.self))
    }
}
