import Foundation
import ZeroPiiLocking
import ZeroPiiSDK

/// A retry policy that counts the retries it allows, for the run's summary; otherwise
/// the SDK's default policy.
final class CountingRetryPolicy: NSObject, RetryPolicy, Sendable {
    private let base = DefaultRetryPolicy()
    private let count = Locked(0)

    var retries: Int { count.withLock { $0 } }

    func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool {
        let retry = base.shouldRetry(attempt: attempt, httpStatusCode: httpStatusCode)
        if retry { count.withLock { $0 += 1 } }
        return retry
    }

    func retryDelayMs(attempt: Int) -> Int {
        base.retryDelayMs(attempt: attempt)
    }
}
