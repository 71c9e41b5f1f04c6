import Foundation

/// Incremental HTTP/1.1 request parsing with strict limits (RFC 9112).
///
/// Bytes are appended as they arrive; ``next()`` yields a complete request, asks for
/// more bytes, or reports why the request is rejected. Anything ambiguous (conflicting
/// lengths, folded headers, transfer codings) is rejected rather than guessed at,
/// which is what keeps request smuggling out.
struct HTTPRequestParser {
    enum Result {
        case request(ServerRequest)
        case needMore
        case failure(status: Int, code: String, message: String)
    }

    private let limits: HTTPServerLimits
    private var buffer: [UInt8] = []
    /// Where the search for the end of the headers resumes.
    private var scanned = 0
    private var lastKeepAlive = true

    init(limits: HTTPServerLimits) {
        self.limits = limits
    }

    var hasBufferedBytes: Bool { !buffer.isEmpty }

    mutating func append(_ bytes: ArraySlice<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Whether the connection stays open after answering the last request returned.
    var keepsAlive: Bool { lastKeepAlive }

    mutating func next() -> Result {
        // A client may send empty lines between pipelined requests.
        while buffer.count >= 2 && buffer[0] == 13 && buffer[1] == 10 {
            buffer.removeFirst(2)
            scanned = 0
        }
        guard let headerEnd = findHeaderEnd() else {
            if buffer.count > limits.maximumHeaderBytes {
                return .failure(status: 431, code: "headers_too_large", message: "the request headers are too large")
            }
            return .needMore
        }
        if headerEnd > limits.maximumHeaderBytes {
            return .failure(status: 431, code: "headers_too_large", message: "the request headers are too large")
        }
        guard buffer[0..<headerEnd].allSatisfy({ $0 == 9 || $0 == 13 || $0 == 10 || (32...126).contains($0) }) else {
            return .failure(status: 400, code: "bad_request", message: "the request head has invalid bytes")
        }
        let head = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty,
            requestLine[0].allSatisfy({ $0.isUppercase || $0 == "-" || $0 == "_" }),
            requestLine[1].hasPrefix("/")
        else { return .failure(status: 400, code: "bad_request", message: "the request line is malformed") }
        let version = requestLine[2]
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            if version.hasPrefix("HTTP/") {
                return .failure(status: 505, code: "http_version", message: "only HTTP/1.0 and HTTP/1.1 are supported")
            }
            return .failure(status: 400, code: "bad_request", message: "the request line is malformed")
        }

        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                line.first != " ", line.first != "\t",
                !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
            else { return .failure(status: 400, code: "bad_request", message: "a header line is malformed") }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }

        let method = String(requestLine[0])
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        if headers.contains(where: { $0.name == "transfer-encoding" }) {
            if !lengths.isEmpty {
                return .failure(status: 400, code: "bad_request", message: "Transfer-Encoding and Content-Length together")
            }
            return .failure(status: 501, code: "not_implemented", message: "transfer codings are not supported; send Content-Length")
        }
        var bodyLength = 0
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18, first.allSatisfy(\.isASCII),
                first.allSatisfy(\.isNumber), let parsed = Int(first)
            else { return .failure(status: 400, code: "bad_request", message: "the Content-Length is invalid") }
            bodyLength = parsed
        } else if method == "POST" || method == "PUT" || method == "PATCH" {
            return .failure(status: 411, code: "length_required", message: "a body needs a Content-Length")
        }
        guard bodyLength <= limits.maximumBodyBytes else {
            return .failure(status: 413, code: "body_too_large", message: "the body is larger than 8 MiB")
        }
        let bodyStart = headerEnd + 4
        guard buffer.count >= bodyStart + bodyLength else { return .needMore }

        let body = Data(buffer[bodyStart..<(bodyStart + bodyLength)])
        buffer.removeFirst(bodyStart + bodyLength)
        scanned = 0

        let target = requestLine[1]
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        let connection = headers.first { $0.name == "connection" }?.value.lowercased() ?? ""
        lastKeepAlive = version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        return .request(
            ServerRequest(
                method: method, path: String(target[..<pathEnd]),
                query: pathEnd == target.endIndex ? "" : String(target[target.index(after: pathEnd)...]),
                headers: headers, body: body
            ))
    }

    /// The index of the `\r\n\r\n` that ends the head, if it has arrived.
    private mutating func findHeaderEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        var index = max(0, scanned - 3)
        while index + 3 < buffer.count {
            if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        scanned = buffer.count
        return nil
    }
}
