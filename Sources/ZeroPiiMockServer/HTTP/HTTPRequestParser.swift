import Foundation

/// Incremental HTTP/1.1 request parsing with strict limits (RFC 9112).
///
/// Bytes are appended as they arrive; ``next()`` yields a complete request, asks for
/// more bytes, or reports why the request is rejected. Anything ambiguous (a bare CR or
/// LF, folded headers, conflicting lengths, transfer codings, a missing `Host`) is
/// rejected rather than guessed at, which is what keeps request smuggling out.
///
/// Work is proportional to the bytes received: the head is validated byte by byte as it
/// arrives, resuming where the last scan stopped, and parsed once; from then on the body
/// length is known and arriving bytes are appended to the body without looking at the
/// head again. So a client cannot make the server re-read a large head on every byte.
struct HTTPRequestParser {
    enum Result {
        case request(ServerRequest)
        case needMore
        case failure(status: Int, code: String, message: String)
    }

    /// A parsed head whose body is still arriving.
    private struct Head {
        let method: String
        let path: String
        let query: String
        let headers: [(name: String, value: String)]
        let bodyLength: Int
        let keepAlive: Bool
        /// `Expect: 100-continue`: the client waits for a 100 before sending the body.
        let expectsContinue: Bool
    }

    private static let carriageReturn: UInt8 = 13
    private static let lineFeed: UInt8 = 10

    private let limits: HTTPServerLimits
    /// Where bodies are charged against the server-wide memory budget; nil charges nothing.
    private let budget: HTTPServerStatistics?
    /// Received bytes not yet consumed, from `start` on; bytes before `start` are spent.
    private var buffer: [UInt8] = []
    private var start = 0
    /// The head has been validated up to here; the next scan resumes from it.
    private var scanned = 0
    /// Where the head line being scanned begins.
    private var lineStart = 0
    private var leadingEmptyLines = 0
    private var head: Head?
    private var body = Data()
    private var reservedBytes = 0
    private var lastKeepAlive = true
    /// Whether this request's `100 Continue` has been taken (``takeContinue()``).
    private var continueTaken = false

    /// How far ahead of the bytes received a body is charged to the budget, so the
    /// shared counter is not taken for every read.
    private static let budgetChunk = 16 * 1024
    /// Bodies up to this size (the OAuth login, a single tokenize, most batches) may use
    /// the whole budget; larger ones only ``largeBodyShare`` of it. Found from outside:
    /// 32 clients each sending all but the last byte of an 8 MiB body held the whole
    /// budget, and every other body, the login included, got 503 until their deadline.
    static let smallBodyBytes = 64 * 1024
    /// The part of the budget that bodies over ``smallBodyBytes`` may hold together.
    static func largeBodyLimit(_ budget: Int) -> Int { budget / 4 * 3 }

    init(limits: HTTPServerLimits, budget: HTTPServerStatistics? = nil) {
        self.limits = limits
        self.budget = budget
    }

    /// Whether a request has begun arriving: bytes (even empty lines) since the last
    /// request was returned. The request timeout runs from then on.
    var isMidRequest: Bool { start < buffer.count || head != nil || leadingEmptyLines > 0 }

    /// Whether the connection stays open after answering the last request returned.
    var keepsAlive: Bool { lastKeepAlive }

    mutating func append(_ bytes: ArraySlice<UInt8>) {
        var bytes = bytes
        if let head, start == buffer.count {
            // The common case while a body arrives: straight into the body, no copy in between.
            let taken = min(bytes.count, head.bodyLength - body.count)
            body.append(contentsOf: bytes.prefix(taken))
            bytes = bytes.dropFirst(taken)
        }
        if start == buffer.count {
            // Nothing pending: start over, keeping at most a modest buffer around.
            buffer.removeAll(keepingCapacity: buffer.capacity <= 16 * 1024)
            (start, scanned, lineStart) = (0, 0, 0)
        } else if start >= 16 * 1024 && start * 2 >= buffer.count {
            // Drop spent bytes once they are the larger part, so compaction is amortised O(1).
            buffer.removeFirst(start)
            (scanned, lineStart) = (max(scanned - start, 0), max(lineStart - start, 0))
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// True once per request whose head asked for `100 Continue` and whose body has not
    /// all arrived: the server then sends the interim answer, and the client its body
    /// (curl otherwise waits a second for it, other clients until their timeout).
    mutating func takeContinue() -> Bool {
        guard let head, head.expectsContinue, !continueTaken, body.count < head.bodyLength else { return false }
        continueTaken = true
        return true
    }

    /// Gives the body bytes charged for the last request back to the memory budget; the
    /// server calls it once the response has been sent, and when the connection ends.
    mutating func releaseBudget() {
        budget?.release(reservedBytes)
        reservedBytes = 0
    }

    mutating func next() -> Result {
        if head == nil {
            switch scanHead() {
            case .some(.success(let end)):
                if case .failure(let failure) = parseHead(end: end) { return failure.result }
            case .some(.failure(let failure)):
                return failure.result
            case nil:
                return .needMore
            }
        }
        guard let head else { return .needMore }
        let missing = head.bodyLength - body.count
        if missing > 0 && start < buffer.count {
            let taken = min(missing, buffer.count - start)
            body.append(contentsOf: buffer[start..<(start + taken)])
            start += taken
        }
        if body.count > reservedBytes, let budget {
            // Charged as the bytes arrive, not as the head declares them: a head that
            // promises a large body and sends nothing holds no budget from other clients.
            let wanted = min(head.bodyLength, body.count + Self.budgetChunk) - reservedBytes
            let limit =
                head.bodyLength <= Self.smallBodyBytes ? limits.requestMemoryBudget : Self.largeBodyLimit(limits.requestMemoryBudget)
            guard budget.reserve(wanted, limit: limit) else {
                return .failure(status: 503, code: "server_busy", message: "the server is holding too many request bodies; retry")
            }
            reservedBytes += wanted
        }
        guard body.count == head.bodyLength else { return .needMore }
        let request = ServerRequest(method: head.method, path: head.path, query: head.query, headers: head.headers, body: body)
        self.head = nil
        continueTaken = false
        body = Data()
        leadingEmptyLines = 0
        (scanned, lineStart) = (start, start)
        lastKeepAlive = head.keepAlive
        return .request(request)
    }

    // MARK: The head

    private struct Rejection: Error {
        let status: Int
        let code: String
        let message: String
        var result: Result { .failure(status: status, code: code, message: message) }

        static func badRequest(_ message: String) -> Rejection { Rejection(status: 400, code: "bad_request", message: message) }
        static let tooLarge = Rejection(status: 431, code: "headers_too_large", message: "the request headers are too large")
    }

    /// Validates the head bytes that arrived since the last call. Returns the index of
    /// the empty line's CR that ends the head, nil when more bytes are needed.
    private mutating func scanHead() -> Swift.Result<Int, Rejection>? {
        var index = scanned
        defer { scanned = index }
        while index < buffer.count {
            let byte = buffer[index]
            if byte == Self.carriageReturn {
                guard index + 1 < buffer.count else { break }  // wait for its LF
                guard buffer[index + 1] == Self.lineFeed else { return .failure(.badRequest("a bare CR in the request head")) }
                if index == lineStart {
                    if lineStart == start {
                        // An empty line before the request line: tolerated a few times,
                        // and counted by the request timeout like any other byte.
                        leadingEmptyLines += 1
                        guard leadingEmptyLines <= limits.maximumLeadingEmptyLines else {
                            return .failure(.badRequest("too many empty lines before the request"))
                        }
                        index += 2
                        (start, lineStart) = (index, index)
                        continue
                    }
                    return .success(index)
                }
                index += 2
                lineStart = index
                continue
            }
            if byte == Self.lineFeed { return .failure(.badRequest("a bare LF in the request head")) }
            guard byte == 9 || (32...126).contains(byte) else { return .failure(.badRequest("the request head has invalid bytes")) }
            index += 1
            if index - start > limits.maximumHeaderBytes { return .failure(.tooLarge) }
        }
        return nil
    }

    /// Parses the validated head `buffer[start..<end]` (lines separated by CRLF, only
    /// printable ASCII and tabs) once, and charges the body to the memory budget.
    private mutating func parseHead(end: Int) -> Swift.Result<Void, Rejection> {
        let text = String(decoding: buffer[start..<end], as: UTF8.self)
        start = end + 2
        (scanned, lineStart) = (start, start)
        var lines = text.components(separatedBy: "\r\n")
        if lines.last == "" { lines.removeLast() }  // the CRLF that ends the last header line
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty,
            requestLine[0].allSatisfy({ ("A"..."Z").contains($0) || $0 == "-" || $0 == "_" }),
            Self.originForm(of: requestLine[1]).hasPrefix("/"), !requestLine[1].contains("\t")
        else { return .failure(.badRequest("the request line is malformed")) }
        let version = requestLine[2]
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            if version.hasPrefix("HTTP/") {
                return .failure(Rejection(status: 505, code: "http_version", message: "only HTTP/1.0 and HTTP/1.1 are supported"))
            }
            return .failure(.badRequest("the request line is malformed"))
        }

        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            if line.first == " " || line.first == "\t" {
                return .failure(.badRequest("obsolete line folding is not accepted"))
            }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, line[..<colon].utf8.allSatisfy(Self.isTokenByte)
            else { return .failure(.badRequest("a header line is malformed")) }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            headers.append((line[..<colon].lowercased(), value))
        }

        let method = String(requestLine[0])
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        if headers.contains(where: { $0.name == "transfer-encoding" }) {
            if !lengths.isEmpty { return .failure(.badRequest("Transfer-Encoding and Content-Length together")) }
            return .failure(
                Rejection(status: 501, code: "not_implemented", message: "transfer codings are not supported; send Content-Length"))
        }
        var bodyLength = 0
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18, first.utf8.allSatisfy({ (48...57).contains($0) }),
                let parsed = Int(first)
            else { return .failure(.badRequest("the Content-Length is invalid")) }
            bodyLength = parsed
        } else if method == "POST" || method == "PUT" || method == "PATCH" {
            return .failure(Rejection(status: 411, code: "length_required", message: "a body needs a Content-Length"))
        }
        guard bodyLength <= limits.maximumBodyBytes else {
            return .failure(Rejection(status: 413, code: "body_too_large", message: "the body is larger than the server accepts"))
        }
        let hosts = headers.filter { $0.name == "host" }.count
        guard hosts == 1 || (hosts == 0 && version == "HTTP/1.0") else {
            return .failure(.badRequest("an HTTP/1.1 request needs exactly one Host header"))
        }

        let target = Self.originForm(of: requestLine[1])
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        let connection = headers.first { $0.name == "connection" }?.value.lowercased() ?? ""
        let options = connection.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        head = Head(
            method: method, path: String(target[..<pathEnd]),
            query: pathEnd == target.endIndex ? "" : String(target[target.index(after: pathEnd)...]),
            headers: headers, bodyLength: bodyLength,
            keepAlive: version == "HTTP/1.1" ? !options.contains("close") : options.contains("keep-alive"),
            expectsContinue: version == "HTTP/1.1" && headers.contains { $0.name == "expect" && $0.value.lowercased() == "100-continue" }
        )
        body = Data()
        return .success(())
    }

    /// The path and query of a request target: an absolute-form target
    /// (`http://host:port/path?query`, which RFC 9112 section 3.2.2 says a server must
    /// accept) loses its scheme and authority; an origin-form one stays as it is.
    static func originForm(of target: Substring) -> Substring {
        let lowered = target.prefix(8).lowercased()
        let schemeLength = lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return target }
        let afterScheme = target.dropFirst(schemeLength)
        guard let pathStart = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = afterScheme[pathStart...]
        return rest.first == "?" ? Substring("/" + rest) : rest
    }

    /// RFC 9110 `tchar`: the bytes a header name (a token) may hold.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
