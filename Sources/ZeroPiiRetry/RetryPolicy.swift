import Foundation

#if compiler(>=6.2)
/// Decides whether, and after how long, a failed request is tried again.
///
/// The SDK asks after every failure that Docs/Protocol.md (section 6) makes retryable, and
/// only those: network failures with no HTTP response (status `nil`), 429, 500, 502,
/// 503 and 504. Every other status is final without asking (400, 403, 409, 413, 419,
/// 501, 505 and any other). A 401 never reaches the policy: the SDK refreshes the
/// access token and replays once by itself. A `stale_request` 400 is replayed once
/// after a clock correction, also without the policy.
///
/// ``retryDelayMs(attempt:)`` may return any value: negative counts as zero, and a
/// `Retry-After` on 429 or 503 can only lengthen the wait (to at most 60 s). However
/// long the policy keeps retrying, the SDK's call time limit ends the call.
///
/// The SDK asks from its own tasks, off the main actor: a main-actor class marks both
/// methods `nonisolated`. The protocol is `SendableMetatype` (Swift 6.2 compilers and
/// later), so a conformance isolated to an actor is a compile error, not a data race.
#if canImport(ObjectiveC)
@objc(RetryPolicy)
#endif
public protocol RetryPolicy: AnyObject, SendableMetatype {
    /// Return `true` to retry the failed request.
    ///
    /// - Parameters:
    ///   - attempt: Zero-based retry counter (0 = first retry after the initial failure).
    ///   - httpStatusCode: The HTTP status code from the server, or `nil` for network-level
    ///     errors (no HTTP response received). 401 responses are handled internally by the
    ///     SDK (token refresh) and are **never** passed to this method.
    #if canImport(ObjectiveC)
    @objc(shouldRetryWithAttempt:httpStatusCode:)
    #endif
    func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool

    /// Milliseconds to wait before the next attempt.
    ///
    /// - Parameter attempt: Zero-based retry counter, identical to the value passed to
    ///   ``shouldRetry(attempt:httpStatusCode:)`` for the same retry.
    #if canImport(ObjectiveC)
    @objc(retryDelayMsWithAttempt:)
    #endif
    func retryDelayMs(attempt: Int) -> Int
}
#else
/// Decides whether, and after how long, a failed request is tried again.
///
/// The same protocol for Swift 6.0 and 6.1 compilers, which have no `SendableMetatype`.
#if canImport(ObjectiveC)
@objc(RetryPolicy)
#endif
public protocol RetryPolicy: AnyObject {
    /// Return `true` to retry the failed request.
    #if canImport(ObjectiveC)
    @objc(shouldRetryWithAttempt:httpStatusCode:)
    #endif
    func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool

    /// Milliseconds to wait before the next attempt.
    #if canImport(ObjectiveC)
    @objc(retryDelayMsWithAttempt:)
    #endif
    func retryDelayMs(attempt: Int) -> Int
}
#endif
