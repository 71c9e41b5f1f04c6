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
    /// Records `requestID` as used and says whether it was new; called once per request,
    /// after the request has been authenticated, so that a forged envelope cannot burn an
    /// id. The v1 envelope refuses a request whose id was already used.
    package let claimRequestID: @Sendable (_ requestID: String) -> Bool

    /// A value with these fields.
    package init(
        body: Data, accessToken: String, operation: TokenizationOperation, now: Date,
        claimRequestID: @escaping @Sendable (_ requestID: String) -> Bool
    ) {
        self.body = body
        self.accessToken = accessToken
        self.operation = operation
        self.now = now
        self.claimRequestID = claimRequestID
    }
}
