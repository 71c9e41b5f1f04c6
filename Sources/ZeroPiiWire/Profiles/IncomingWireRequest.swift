import Foundation

/// What a profile's server half reads a request with.
package struct IncomingWireRequest: Sendable {
    /// The request's body as it arrived.
    package let body: Data
    /// The bearer token the request came with (already checked by the server).
    package let accessToken: String
    /// The operation of the endpoint the request was sent to.
    package let operation: TokenizationOperation
    /// The server's time.
    package let now: Date
    /// Records a request id, sent with the request time `ts`, as used and says whether it
    /// was new; called once per request, after the request has been authenticated, so
    /// that a forged envelope cannot burn an id. The v1 envelope refuses a request whose
    /// id was already used, or older than what the server remembers.
    package let claimRequestID: @Sendable (_ requestID: String, _ timestamp: Int64) -> Claim

    /// What the server's record of used request ids says of one.
    package enum Claim: Sendable, Equatable {
        /// New: recorded now.
        case claimed
        /// Used before (a replay).
        case alreadyUsed
        /// Sent with a time older than the oldest the record still holds, so it could be
        /// a replay the server no longer remembers.
        case beyondMemory
    }

    /// A value with these fields.
    package init(
        body: Data, accessToken: String, operation: TokenizationOperation, now: Date,
        claimRequestID: @escaping @Sendable (_ requestID: String, _ timestamp: Int64) -> Claim
    ) {
        self.body = body
        self.accessToken = accessToken
        self.operation = operation
        self.now = now
        self.claimRequestID = claimRequestID
    }
}
