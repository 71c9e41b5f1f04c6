import Foundation

/// What a profile's client half may bind a request to: the attempt's identity and
/// credentials.
package struct WireAttempt: Sendable {
    /// The operation's label (Docs/Protocol.md section 1).
    package let operation: TokenizationOperation
    /// The attempt's `X-Request-ID` (``RequestID``).
    package let requestID: String
    /// The access token the attempt is sent with.
    package let accessToken: String
    /// The server's time as far as the client knows it, for timestamps.
    package let now: Date

    /// A value with these fields.
    package init(operation: TokenizationOperation, requestID: String, accessToken: String, now: Date) {
        self.operation = operation
        self.requestID = requestID
        self.accessToken = accessToken
        self.now = now
    }
}
