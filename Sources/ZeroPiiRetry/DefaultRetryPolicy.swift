import Foundation

/// The policy the SDK uses unless given another: one retry, with exponential back-off
/// of 2 s, 4 s, 8 s... on network errors, 429, 500, 502, 503 and 504.
#if canImport(ObjectiveC)
@objc(DefaultRetryPolicy)
#endif
public final class DefaultRetryPolicy: NSObject, RetryPolicy, @unchecked Sendable {
    // Sendable: all stored properties are immutable.

    /// The statuses worth retrying; `nil` (no response) is retried too.
    public static let retryableStatusCodes: Set<Int> = [429, 500, 502, 503, 504]

    /// How many retries after the first attempt.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let maximumRetries: Int
    /// The first delay; each later one doubles it.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let baseDelayMs: Int

    /// The documented default: one retry, starting at 2 s.
    public override convenience init() {
        self.init(maximumRetries: 1, baseDelayMs: 2000)
    }

    /// A policy with its own retry count and first delay.
    #if canImport(ObjectiveC)
    @objc(initWithMaximumRetries:baseDelayMs:)
    #endif
    public init(maximumRetries: Int, baseDelayMs: Int) {
        self.maximumRetries = max(0, maximumRetries)
        self.baseDelayMs = max(0, baseDelayMs)
    }

    /// Retries network errors, 429, 500, 502, 503 and 504 while `attempt` is below ``maximumRetries``.
    public func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool {
        guard attempt < maximumRetries else { return false }
        guard let status = httpStatusCode else { return true }
        return Self.retryableStatusCodes.contains(status.intValue)
    }

    /// ``baseDelayMs`` doubled `attempt` times.
    public func retryDelayMs(attempt: Int) -> Int {
        // 2^attempt, saturating instead of overflowing for absurd attempt numbers.
        let doublings = min(max(attempt, 0), 30)
        let (delay, overflow) = baseDelayMs.multipliedReportingOverflow(by: 1 << doublings)
        return overflow ? Int.max : delay
    }
}
