import Foundation

/// What kind of failure a result reports, for programs that act on failures without
/// reading their messages.
///
/// Every failed ``TokenizeResult`` and ``BatchTokenizeResult`` has one kind other than
/// ``none``, next to its human-readable `errorMessage` and, when the server answered,
/// its `httpStatusCode`. New kinds may be added; treat an unknown one like
/// ``unexpected``.
///
/// | kind | the status or condition behind it |
/// | --- | --- |
/// | ``none`` | success |
/// | ``invalidInput`` | an empty batch, more than 1000 values, NaN or an infinite number (no request sent); HTTP 400 or 413: the server found the request invalid or too large (except the setup codes under ``configuration``) |
/// | ``configuration`` | an API URL that is not an absolute http(s) URL (no request sent); HTTP 419 (the server could not decrypt: an encryption setting the server does not share); HTTP 400 with the error code `encryption_required`, `unsupported_encryption`, `unsupported_version` or `invalid_envelope` (the server speaks another wire profile); any 1xx, 3xx or 4xx status not listed here, such as 404 |
/// | ``authentication`` | the token provider failed, timed out or returned no token; the refresh guard tripped; HTTP 401 after the one refresh, or 403 |
/// | ``network`` | no HTTP response: connection refused or reset, DNS or TLS failure, an attempt past its `requestTimeout` |
/// | ``timeout`` | the whole call passed its time limit (`callTimeout`); nothing more was sent after it |
/// | ``rateLimited`` | HTTP 429, after the retry policy stopped |
/// | ``server`` | HTTP 409, 500, 502, 503, 504 or any other 5xx (the retryable ones after the retry policy stopped) |
/// | ``invalidResponse`` | a 2xx answer that could not be used: unreadable, not decryptable, unencrypted to an encrypted request, or not matching the request |
/// | ``cancelled`` | the calling task was cancelled, or the transport reported the request cancelled |
/// | ``unexpected`` | a failure inside the SDK that none of the other kinds describe |
#if canImport(ObjectiveC)
@objc(ZeroPiiErrorKind)
#endif
public enum ZeroPiiErrorKind: Int, Sendable, CustomStringConvertible {
    /// Not a failure: the result is a success.
    case none = 0
    /// The values cannot be tokenized as given; sending them again will not help.
    case invalidInput = 1
    /// The SDK's setup does not fit the server (API URL, payload encryption).
    case configuration = 2
    /// No access token could be had, or the server refused the ones it got.
    case authentication = 3
    /// No HTTP response arrived; trying again later may work.
    case network = 4
    /// The call's time limit passed before it finished.
    case timeout = 5
    /// The server is limiting the request rate; try again later, more slowly.
    case rateLimited = 6
    /// The server or a gateway failed; trying again later may work.
    case server = 7
    /// The server answered with success, but the answer could not be used.
    case invalidResponse = 8
    /// The call was cancelled.
    case cancelled = 9
    /// A failure inside the SDK that none of the other kinds describe.
    case unexpected = 10

    /// The kind of failure an HTTP error status stands for (Docs/Protocol.md, section 6).
    ///
    /// - Parameter httpStatusCode: The status the server answered with.
    public init(httpStatusCode: Int) {
        switch httpStatusCode {
        case 200..<300: self = .invalidResponse
        case 400, 413: self = .invalidInput
        case 401, 403: self = .authentication
        case 419: self = .configuration
        case 429: self = .rateLimited
        case 409, 500..<600: self = .server
        default: self = .configuration
        }
    }

    /// The kind's name, as written in Swift.
    public var description: String {
        switch self {
        case .none: return "none"
        case .invalidInput: return "invalidInput"
        case .configuration: return "configuration"
        case .authentication: return "authentication"
        case .network: return "network"
        case .timeout: return "timeout"
        case .rateLimited: return "rateLimited"
        case .server: return "server"
        case .invalidResponse: return "invalidResponse"
        case .cancelled: return "cancelled"
        case .unexpected: return "unexpected"
        }
    }
}
