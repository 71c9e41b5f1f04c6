import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif
#if canImport(ZeroPiiWire)
import ZeroPiiWire
#endif

/// Why a request produced no tokens: a message safe to show and log (never a value, a
/// token or an access token), its ``/ZeroPiiModels/ZeroPiiErrorKind``, and the
/// server's status when it answered.
struct RequestFailure: Error, Sendable {
    let message: String
    let kind: ZeroPiiErrorKind
    let statusCode: Int?

    init(_ message: String, kind: ZeroPiiErrorKind, statusCode: Int? = nil) {
        self.message = message
        self.kind = kind
        self.statusCode = statusCode
    }

    static let cancelled = RequestFailure("the request was cancelled", kind: .cancelled)
    static let invalidResponse = RequestFailure("the server's response could not be read", kind: .invalidResponse)
    static let undecryptableResponse = RequestFailure("the response could not be decrypted", kind: .invalidResponse)
    static let downgradedResponse = RequestFailure(
        "the server answered without payload encryption; the response was rejected", kind: .invalidResponse
    )
    static let inconsistentResponse = RequestFailure("the server's response did not match the request", kind: .invalidResponse)
    static let invalidAPIURL = RequestFailure(
        "the API URL given to initialize is not an absolute http(s) URL", kind: .configuration
    )
    static let unexpected = RequestFailure("the request failed unexpectedly", kind: .unexpected)

    /// The failure for a 2xx answer the request's profile could not read.
    init(_ failure: WireResponseFailure) {
        switch failure {
        case .unreadable: self = .invalidResponse
        case .downgraded: self = .downgradedResponse
        case .undecryptable: self = .undecryptableResponse
        }
    }

    /// The call's time limit passed; `seconds` is that limit.
    static func timedOut(after seconds: TimeInterval) -> RequestFailure {
        RequestFailure("the call did not finish within its time limit of \(Self.seconds(seconds))", kind: .timeout)
    }

    /// No HTTP response arrived (the transport's own description says why).
    static func network(_ detail: String) -> RequestFailure {
        RequestFailure("the network request failed: \(detail)", kind: .network)
    }

    /// No access token (the error's description says why; it never holds a token).
    static func authentication(_ detail: String, statusCode: Int? = nil) -> RequestFailure {
        RequestFailure(detail, kind: .authentication, statusCode: statusCode)
    }

    /// The failure for an HTTP error status, with the server's error code when it is one
    /// the protocol documents (server-written text is never passed on: it could echo a value).
    static func forStatus(_ status: Int, serverCode: String?) -> RequestFailure {
        if status == 400, let serverCode, WireErrorCode.setupMismatches.contains(WireErrorCode(rawValue: serverCode)) {
            return RequestFailure(
                "the server does not accept this SDK's wire profile (HTTP 400) [\(serverCode)]; "
                    + "set ZeroPiiConfiguration.wireProfile to the one the server speaks",
                kind: .configuration, statusCode: status)
        }
        let base: String
        switch status {
        case 400: base = "the server rejected the request as invalid"
        case 401: base = "the access token was rejected"
        case 403: base = "the access token is not allowed to tokenize"
        case 409: base = "the server had already seen this request id"
        case 413: base = "the request was too large for the server"
        case 419: base = "the server could not decrypt the request"
        case 429: base = "the server is limiting the request rate"
        case 500...599: base = "the server failed"
        default: base = "the server answered with an unexpected status"
        }
        let code = serverCode.flatMap { WireErrorCode.documented.contains($0) ? " [\($0)]" : nil } ?? ""
        return RequestFailure("\(base) (HTTP \(status))\(code)", kind: ZeroPiiErrorKind(httpStatusCode: status), statusCode: status)
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && value < 1e15 ? "\(Int64(value)) s" : "\(value) s"
    }
}
