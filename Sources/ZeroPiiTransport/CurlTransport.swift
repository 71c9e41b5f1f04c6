#if canImport(ZeroPiiCurlShim)
import Foundation
internal import ZeroPiiCurlShim

/// An ``HTTPTransport`` over libcurl's multi interface: the SDK's default on Linux.
///
/// FoundationNetworking's `URLSession` on Linux costs about ten times libcurl's CPU per
/// request and keeps a core busy while it waits for a slow answer; this transport drives
/// libcurl (which FoundationNetworking itself is built on) directly. One thread per
/// transport sleeps in `curl_multi_poll` and runs every transfer: connections are kept
/// alive and reused, at most ``Options/maximumConnections`` of them; HTTP/2 is used
/// where the library and the server have it.
///
/// - **Loading.** libcurl (`libcurl.so.4`) is loaded at run time, so the package needs no
///   development headers to build; the initialiser throws ``CurlTransportSetupError``
///   where it cannot be loaded or is older than 7.68.
/// - **Time limits.** `request.timeout` limits the whole attempt, connecting included, at
///   any length up to ``URLSessionTransport/longestTimeout``; zero, negative or NaN ends
///   it at once, and `.infinity` means no limit. It ends with ``TransportError/timedOut``.
/// - **Cancellation.** Cancelling the calling task ends the call at once with
///   `CancellationError`, and the transfer is taken out of libcurl, which closes its
///   connection if the request was under way.
/// - **TLS.** Certificates and host names are always verified, against the system's CA
///   store unless ``Options/trustedCertificateAuthorities`` names others; public keys can
///   be pinned (``Options/pinnedPublicKeys``).
/// - **Proxies** come from the environment, as the `curl` tool reads them: `http_proxy`
///   (lower case only), `HTTPS_PROXY` or `https_proxy`, `ALL_PROXY`, and `NO_PROXY`;
///   requests to this machine (`localhost`, 127.0.0.0/8 in any notation, `0.0.0.0`, `::1`)
///   never use one.
/// - **One send per request.** libcurl's own resend of a request whose reused connection
///   died before any answer is refused (libcurl 7.80 and later): the attempt fails as
///   `curl 52`, and the caller's retry policy decides.
/// - **Errors.** A response of any status is returned once its headers have ended; a
///   connection closed in the middle of them is a failure (`curl incomplete response`).
///   So is, at once, an answer whose end cannot be known: `101 Switching Protocols`
///   (`curl switched protocols`), or `Content-Length` fields that differ or are not a
///   number (`curl unclear content length`); libcurl would wait for these until the
///   attempt's timeout.
///   A request that got no response throws a ``TransportError`` whose detail is
///   libcurl's error number (`curl 7`), never its text, which can hold the URL.
///
/// The transport's thread ends, and its connections close, when the transport is
/// released; a call still waiting then ends with ``TransportError/cancelled``.
/// When the process exits (`exit`), every transport's transfers are ended the same way
/// before OpenSSL's own exit handler runs, waiting at most 2 s for their threads: a
/// process that exited during a TLS handshake crashed in that handshake otherwise.
public final class CurlTransport: HTTPTransport, SelfBoundedTransport, Sendable {
    /// Internal, not private, so tests can see the loop end with its transport.
    let loop: CurlMultiLoop
    private let options: Options

    /// Loads libcurl if needed and starts the transport's thread.
    ///
    /// - Throws: ``CurlTransportSetupError`` when libcurl cannot be used, or an option is
    ///   invalid (a pin that is not `sha256//` and the Base64 of 32 bytes, a connection
    ///   limit below 1).
    public init(options: Options = Options()) throws {
        if let reason = Self.unavailableReason {
            throw CurlTransportSetupError(reason: reason)
        }
        try options.validate()
        self.options = options
        loop = try CurlMultiLoop(options: options)
    }

    deinit {
        loop.stop()
    }

    /// Why libcurl cannot be used in this process, or nil when it can.
    public static var unavailableReason: String? {
        zp_curl_load().map { String(cString: $0) }
    }

    /// Sends `request` and returns the server's response, whatever its status.
    ///
    /// - Throws: ``TransportError/timedOut`` when the attempt's time limit passed,
    ///   `CancellationError` when the calling task was cancelled,
    ///   ``TransportError/cancelled`` when the transport was released first, or a
    ///   ``TransportError`` of kind `connectionFailed` for any other failure to get a
    ///   response (refused, reset, unresolvable host, TLS verification, a header with a
    ///   line break, a response over ``Options/maximumResponseBytes``).
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try Task.checkCancellation()
        let limit = URLSessionTransport.timeLimit(request.timeout)
        guard limit != 0 else { throw TransportError.timedOut }
        guard let headerLines = Self.headerLines(request.headers) else {
            throw TransportError.connectionFailed(.invalidHeaderField)
        }
        let transfer = CurlTransfer(
            method: request.method, url: request.url.absoluteString, headerLines: headerLines, body: request.body,
            timeoutMilliseconds: limit.map { max(1, Int(($0 * 1000).rounded(.up))) } ?? 0,
            maximumResponseBytes: options.maximumResponseBytes, bypassesProxy: ThisMachine.isNamed(by: request.url.host))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard transfer.attach(continuation) else { return }
                if !loop.start(transfer) {
                    transfer.end(with: .failure(TransportError.cancelled))
                }
            }
        } onCancel: {
            if transfer.end(with: .failure(CancellationError())) {
                loop.cancel(transfer)
            }
        }
    }

    /// `Name: value` lines for libcurl, nil when a name or value could end the line
    /// early (CR, LF or NUL) or a name is not a token. `Expect:` turns off the
    /// `100-continue` round trip libcurl would otherwise make for bodies over 1 MB.
    static func headerLines(_ headers: [String: String]) -> [String]? {
        var lines: [String] = []
        lines.reserveCapacity(headers.count + 1)
        var namesExpect = false
        for (name, value) in headers {
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte),
                !value.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 })
            else { return nil }
            namesExpect = namesExpect || (name.utf8.count == 6 && name.utf8.elementsEqual("expect".utf8) { $0 | 0x20 == $1 })
            let trimmed = Self.trimmingSpaces(value)
            // libcurl sends `Name;` as a header with an empty value; `Name:` would remove it.
            lines.append(trimmed.isEmpty ? name + ";" : name + ": " + trimmed)
        }
        if !namesExpect { lines.append("Expect:") }
        return lines
    }

    /// `value` without leading and trailing spaces and tabs (which libcurl would send).
    private static func trimmingSpaces(_ value: String) -> String {
        let bytes = value.utf8
        guard let first = bytes.first, let last = bytes.last, first == 32 || first == 9 || last == 32 || last == 9 else { return value }
        let start = bytes.firstIndex { $0 != 32 && $0 != 9 } ?? bytes.endIndex
        let end = bytes.lastIndex { $0 != 32 && $0 != 9 }.map { bytes.index(after: $0) } ?? start
        return start < end ? String(value[start..<end]) : ""
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
#endif
