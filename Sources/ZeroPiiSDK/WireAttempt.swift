import Foundation

/// What a profile may bind a request to: the attempt's identity and credentials.
struct WireAttempt: Sendable {
    /// The operation label of Docs/Protocol.md section 1 (`tokenize`, `tokenize/batch`).
    let operation: String
    /// The attempt's `X-Request-ID`, a lowercase UUID.
    let requestID: String
    /// The access token the attempt is sent with.
    let accessToken: String
    /// The server's time as far as the SDK knows it, for timestamps.
    let now: Date
}
