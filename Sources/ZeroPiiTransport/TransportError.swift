import Foundation

/// A request that got no HTTP response.
///
/// Messages name the kind of failure only; they never hold the URL's query, headers or
/// body.
public struct TransportError: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case timedOut
        case connectionFailed
        case cancelled
    }

    private let code: Code
    /// Extra detail that is safe to show (for example a system error code). The SDK
    /// repeats it in its own messages and logs only when it is one of the forms
    /// ``URLSessionTransport`` writes (`no HTTP response`, `URLError` and a code); an
    /// app's transport can put anything here, request bodies and headers included, so
    /// any other detail stays on this error for the app alone.
    public let detail: String?

    private init(_ code: Code, detail: String? = nil) {
        self.code = code
        self.detail = detail
    }

    /// The attempt took longer than its timeout.
    public static let timedOut = TransportError(.timedOut)
    /// The connection could not be made or was lost (refused, reset, DNS, TLS).
    public static let connectionFailed = TransportError(.connectionFailed)
    /// The request was cancelled.
    public static let cancelled = TransportError(.cancelled)

    /// A connection failure with a detail such as the system's error code.
    public static func connectionFailed(detail: String) -> TransportError {
        TransportError(.connectionFailed, detail: detail)
    }

    public static func == (lhs: TransportError, rhs: TransportError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// The same text as ``description``, for code that shows `localizedDescription`.
    public var errorDescription: String? { description }

    public var description: String {
        detail.map { "\(kindDescription) (\($0))" } ?? kindDescription
    }

    private var kindDescription: String {
        switch code {
        case .timedOut: "the request timed out"
        case .connectionFailed: "the connection failed"
        case .cancelled: "the request was cancelled"
        }
    }

    /// The description with the detail only when it is one the package's own transport
    /// writes, for the SDK's messages and log lines, which must never carry personal
    /// data or an access token whatever an app's transport put in its error.
    package var descriptionForMessages: String {
        guard let detail, Self.isOwnDetail(detail) else { return kindDescription }
        return "\(kindDescription) (\(detail))"
    }

    /// The details the package's transports write: `no HTTP response`, `URLError` and a
    /// decimal code (possibly negative), `curl` and libcurl's error number, and the
    /// curl transport's fixed phrases.
    private static func isOwnDetail(_ detail: String) -> Bool {
        if OwnPhrase(rawValue: detail) != nil { return true }
        for prefix in ["URLError ", "curl "] where detail.hasPrefix(prefix) {
            let code = detail.dropFirst(prefix.count)
            let digits = code.hasPrefix("-") ? code.dropFirst() : code
            return !digits.isEmpty && digits.count <= 10 && digits.allSatisfy { $0.isASCII && $0.isNumber }
        }
        return false
    }

    /// Whether sending the same request again cannot get a response: a header the
    /// transport refused before sending, a URL or protocol it cannot use, a server
    /// whose certificate or pinned public key does not verify, or an answer whose end
    /// cannot be known (a server that answers so does it every time). The SDK does not retry
    /// these. Only the package's own transports' details are recognised; an app's
    /// transport's failures are all retryable.
    package var isPermanent: Bool {
        guard code == .connectionFailed, let detail else { return false }
        if let phrase = OwnPhrase(rawValue: detail) { return phrase.isPermanent }
        if let curlCode { return Self.permanentCurlCodes.contains(curlCode) }
        guard detail.hasPrefix("URLError "), let code = Int(detail.dropFirst(9)) else { return false }
        return Self.permanentURLErrorCodes.contains(code)
    }

    /// libcurl: unsupported protocol, malformed URL, a client certificate problem, the
    /// peer's certificate failing verification, an unusable CA file, an issuer check,
    /// a pinned key that does not match.
    private static let permanentCurlCodes: Set<Int> = [1, 3, 58, 60, 77, 83, 90]
    /// URLError: bad URL, unsupported URL, and a server certificate that has a bad date,
    /// is untrusted, has an unknown root or is not yet valid.
    private static let permanentURLErrorCodes: Set<Int> = [-1000, -1002, -1201, -1202, -1203, -1204]

    /// libcurl's error number when the curl transport wrote this error's detail.
    package var curlCode: Int? {
        guard let detail, detail.hasPrefix("curl ") else { return nil }
        return Int(detail.dropFirst(5))
    }
}
