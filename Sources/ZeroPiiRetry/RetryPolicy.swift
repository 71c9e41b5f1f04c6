import Foundation

/// Decides whether, and after how long, a failed request is tried again.
///
/// The SDK asks after every failure that is worth retrying at all: network errors
/// (status `nil`), 429 and 5xx. A 401 never reaches the policy: the SDK refreshes
/// the access token and replays once by itself.
#if canImport(ObjectiveC)
@objc(RetryPolicy)
#endif
public protocol RetryPolicy: AnyObject {
    /// Return `true` to retry the failed request.
    ///
    /// - Parameters:
    ///   - attempt: Zero-based retry counter (0 = first retry after the initial failure).
    ///   - httpStatusCode: The HTTP status code from the server, or `nil` for network-level
    ///     errors (no HTTP response received).
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
