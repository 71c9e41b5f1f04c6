/// Why a request produced no tokens: a message safe to show and log (never a value, a
/// token or an access token) and the server's status when it answered.
struct RequestFailure: Error, Sendable {
    let message: String
    let statusCode: Int?

    init(_ message: String, statusCode: Int? = nil) {
        self.message = message
        self.statusCode = statusCode
    }

    static let cancelled = RequestFailure("the request was cancelled")
    static let invalidResponse = RequestFailure("the server's response could not be read")
    static let undecryptableResponse = RequestFailure("the response could not be decrypted")
    static let downgradedResponse = RequestFailure(
        "the server answered without payload encryption; the response was rejected"
    )
    static let inconsistentResponse = RequestFailure("the server's response did not match the request")

    /// The failure for an HTTP error status, with the server's error code when it is a
    /// plain identifier (server-written text is never passed on: it could echo a value).
    static func forStatus(_ status: Int, serverCode: String?) -> RequestFailure {
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
        let code = serverCode.flatMap { isPlainIdentifier($0) ? " [\($0)]" : nil } ?? ""
        return RequestFailure("\(base) (HTTP \(status))\(code)", statusCode: status)
    }

    private static func isPlainIdentifier(_ text: String) -> Bool {
        (1...64).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
    }
}
