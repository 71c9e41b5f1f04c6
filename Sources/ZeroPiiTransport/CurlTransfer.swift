#if canImport(ZeroPiiCurlShim)
import Foundation
internal import ZeroPiiCurlShim

#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// One request through ``CurlTransport``: what libcurl reads and writes while the
/// transfer runs, and the caller's continuation.
///
/// Two halves with two owners. The request's bytes, the header list and the response
/// being received belong to the transport's thread alone: libcurl calls the write and
/// header callbacks on that thread, from inside `curl_multi_perform`. The continuation
/// is shared with the caller's cancellation handler and is behind a lock: whichever of
/// the answer, the cancellation or the transport's shutdown comes first resumes it, once.
final class CurlTransfer: @unchecked Sendable {
    // Sendable: the unlocked properties below are touched only by the transport's thread
    // once `send` has handed the transfer over (see the type's comment).

    let method: String
    let url: String
    let headerLines: [String]
    /// The request body, copied once into memory libcurl can point at for the whole
    /// transfer (`CURLOPT_POSTFIELDS` does not copy).
    let body: UnsafeMutableRawBufferPointer
    /// The body's length (`body` has room for at least one byte, even for none).
    let bodyCount: Int
    /// The attempt's limit in milliseconds; 0 for none.
    let timeoutMilliseconds: Int
    let maximumResponseBytes: Int

    /// Whether the request must not go through a proxy (its host is this machine).
    let bypassesProxy: Bool
    /// The loop's budget for response bytes, set when the loop takes the transfer.
    var budget: CurlResponseBudget?

    /// Set while libcurl holds the transfer.
    var easy: OpaquePointer?
    var headerList: OpaquePointer?
    private var responseHeaders: [String: String] = [:]
    private var responseBody = Data()
    /// Set when the body outgrew ``maximumResponseBytes`` and the write was refused.
    private(set) var responseTooLarge = false
    /// Whether the last response's header block ended (its empty line came). libcurl
    /// takes a connection closed in the middle of the headers for a complete answer.
    private(set) var headersComplete = false
    /// Why the answer cannot be read, when its head said so: libcurl would otherwise wait
    /// for the rest of an answer that never ends, until the attempt's timeout.
    private(set) var unreadableAnswer: UnreadableAnswer?
    /// The `Content-Length` of the current header block, once one was given.
    private var declaredLength: Int?
    /// Whether the request has been sent (libcurl asked once).
    private var sent = false
    /// Set when libcurl asked to send the request again and was refused.
    private(set) var resendRefused = false

    private struct Ending {
        var continuation: CheckedContinuation<TransportResponse, Error>?
        /// How the transfer ended, kept when it ended before `attach` (cancelled early).
        var outcome: Result<TransportResponse, Error>?
        var ended = false
    }

    private let ending = Locked(Ending())

    init(
        method: String, url: String, headerLines: [String], body: Data, timeoutMilliseconds: Int, maximumResponseBytes: Int,
        bypassesProxy: Bool
    ) {
        self.bypassesProxy = bypassesProxy
        self.method = method
        self.url = url
        self.headerLines = headerLines
        self.timeoutMilliseconds = timeoutMilliseconds
        self.maximumResponseBytes = maximumResponseBytes
        bodyCount = body.count
        self.body = UnsafeMutableRawBufferPointer.allocate(byteCount: max(body.count, 1), alignment: 1)
        body.copyBytes(to: self.body)
    }

    deinit {
        body.deallocate()
    }

    // MARK: The caller's side

    /// Keeps `continuation` for the answer; false, with `continuation` resumed with
    /// the ending that came first, when the transfer already ended (cancelled before it
    /// was handed over).
    func attach(_ continuation: CheckedContinuation<TransportResponse, Error>) -> Bool {
        let earlierOutcome: Result<TransportResponse, Error>?? = ending.withLock { ending in
            guard ending.ended else {
                ending.continuation = continuation
                return .none
            }
            return .some(ending.outcome)
        }
        guard case .some(let outcome) = earlierOutcome else { return true }
        continuation.resume(with: outcome ?? .failure(CancellationError()))
        return false
    }

    /// Ends the transfer with `outcome` unless it ended already; true when this call
    /// ended it.
    @discardableResult
    func end(with outcome: Result<TransportResponse, Error>) -> Bool {
        let taken: CheckedContinuation<TransportResponse, Error>?? = ending.withLock { ending in
            guard !ending.ended else { return .none }
            ending.ended = true
            defer { ending.continuation = nil }
            if ending.continuation == nil { ending.outcome = outcome }
            return .some(ending.continuation)
        }
        guard case .some(let waiting) = taken else { return false }
        waiting?.resume(with: outcome)
        return true
    }

    var hasEnded: Bool { ending.withLock { $0.ended } }

    // MARK: The transport thread's side

    /// Appends body bytes libcurl received; returns how many were taken (fewer ends the
    /// transfer with `CURLE_WRITE_ERROR`).
    func receiveBody(_ bytes: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        guard responseBody.count + count <= maximumResponseBytes, budget?.take(count) ?? true else {
            responseTooLarge = true
            return 0
        }
        responseBody.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: count)
        return count
    }

    /// Whether libcurl may send the request now: the first time only. A second ask is
    /// libcurl's own resend after a reused connection died, which is refused.
    func maySend() -> Bool {
        guard !sent else {
            resendRefused = true
            return false
        }
        sent = true
        return true
    }

    /// Gives the body's bytes back to the loop's budget (the body itself goes with the
    /// response, or with the transfer).
    func releaseBudget() {
        budget?.giveBack(responseBody.count)
        budget = nil
    }

    /// Answers whose head already shows they cannot be read; each ends the transfer at once.
    enum UnreadableAnswer: Equatable {
        /// `101 Switching Protocols`, which the transport never asks for: libcurl would
        /// wait for a final answer that does not come on a connection in another protocol.
        case switchedProtocols
        /// `Content-Length` fields (or list items) that differ, or one that is not a number:
        /// the body's end cannot be known, which RFC 9112 makes an unrecoverable error.
        case unclearLength

        /// The error's detail.
        var phrase: TransportError.OwnPhrase {
            switch self {
            case .switchedProtocols: .switchedProtocols
            case .unclearLength: .unclearContentLength
            }
        }
    }

    /// Takes one header line as libcurl delivers it, status lines included: a status
    /// line starts the headers afresh, so those of an interim `100 Continue` are not
    /// kept. Read as bytes: Foundation's string functions cost more than the request.
    /// Returns `count` to go on, 0 to end the transfer (``unreadableAnswer`` says why).
    func receiveHeaderLine(_ bytes: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        let line = UnsafeRawBufferPointer(start: bytes, count: count)
        if line.starts(with: "HTTP/".utf8) {
            responseHeaders = [:]
            headersComplete = false
            declaredLength = nil
            if Self.statusCode(ofStatusLine: line) == 101 {
                unreadableAnswer = .switchedProtocols
                return 0
            }
            return count
        }
        if Self.trimmed(line[...]).isEmpty {
            headersComplete = true
            return count
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return count }
        let name = Self.trimmed(line[..<colon])
        let value = Self.trimmed(line[(colon + 1)...])
        guard !name.isEmpty else { return count }
        let nameText = String(decoding: name, as: UTF8.self)
        let valueText = String(decoding: value, as: UTF8.self)
        if name.count == 14, name.elementsEqual("content-length".utf8, by: { $0 | 0x20 == $1 | 0x20 }) {
            guard let length = Self.length(valueText), declaredLength.map({ $0 == length }) ?? true else {
                unreadableAnswer = .unclearLength
                return 0
            }
            if declaredLength == nil, length > 0 { responseBody.reserveCapacity(min(length, maximumResponseBytes)) }
            declaredLength = length
        }
        // Repeated fields are joined as RFC 9110 allows and as URLSession does.
        if let earlier = responseHeaders[nameText] {
            responseHeaders[nameText] = earlier + ", " + valueText
        } else {
            responseHeaders[nameText] = valueText
        }
        return count
    }

    /// The three-digit code of a status line (`HTTP/1.1 101 Switching Protocols`, `HTTP/2 200`).
    private static func statusCode(ofStatusLine line: UnsafeRawBufferPointer) -> Int? {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")), space + 4 <= line.count else { return nil }
        var code = 0
        for byte in line[(space + 1)..<(space + 4)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return code
    }

    /// A `Content-Length` value: decimal digits, or a list of the same number (RFC 9110
    /// allows `42, 42`); nil for anything else.
    private static func length(_ value: String) -> Int? {
        var length: Int?
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let digits = item.trimmingCharacters(in: [" ", "\t"])
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let number = Int(digits),
                length.map({ $0 == number }) ?? true
            else { return nil }
            length = number
        }
        return length
    }

    /// `bytes` without leading and trailing spaces, tabs, CRs and LFs.
    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 13 || byte == 10 }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }

    /// The response received so far, with `statusCode`.
    func response(statusCode: Int) -> TransportResponse {
        TransportResponse(statusCode: statusCode, headers: responseHeaders, body: responseBody)
    }
}
#endif
