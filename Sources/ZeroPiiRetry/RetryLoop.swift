import Foundation

/// Runs an operation, retrying failures as a ``RetryPolicy`` says.
///
/// The attempt counter given to the policy is zero-based: 0 is the first retry after
/// the initial failure. A `Retry-After` on 429 or 503 raises the delay to at least
/// that long (capped at 60 s); an HTTP date in it is measured against the clock's
/// ``RetryClock/now()``. Sleeps are cancellable: cancelling the task ends the
/// loop with `CancellationError`. A wait that would outlast the time its caller has left
/// is not begun: the loop ends at once with the last attempt's failure, which says more
/// than a time-out would.
package struct RetryLoop: Sendable {
    /// What one attempt came to.
    package enum Outcome<Success: Sendable>: Sendable {
        /// Done, successfully or with a failure that is final whatever the policy says.
        case finished(Success)
        /// A failure the policy may retry: `statusCode` nil for no HTTP response;
        /// `retryAfter` the raw `Retry-After` header, if any. `final` is returned if
        /// the policy declines.
        case retryable(statusCode: Int?, retryAfter: String?, final: Success)
    }

    private let policy: RetryPolicyBox
    private let clock: any RetryClock

    /// A loop that asks `policy` and sleeps on `clock`.
    package init(policy: RetryPolicy, clock: any RetryClock = SystemRetryClock()) {
        self.policy = RetryPolicyBox(policy)
        self.clock = clock
    }

    /// Calls `attempt` until it finishes or the policy stops retrying.
    ///
    /// A delay is in milliseconds: negative counts as zero, and any size up to `Int.max`
    /// is waited without overflow (the SDK bounds the whole call with its own time limit).
    /// - Parameter attempt: receives the zero-based attempt number (0 = initial).
    /// - Parameter timeLeft: the milliseconds the caller has left, or nil for no limit;
    ///   asked before each wait.
    /// - Parameter willRetry: told the status and delay before each retry (for logging).
    /// - Parameter wontWait: told the status and delay of a retry given up because its
    ///   wait would outlast `timeLeft` (for logging).
    package func run<Success: Sendable>(
        _ attempt: (Int) async throws -> Outcome<Success>,
        timeLeft: () -> Int? = { nil },
        willRetry: (Int?, Int) -> Void = { _, _ in },
        wontWait: (Int?, Int) -> Void = { _, _ in }
    ) async throws -> Success {
        // The number of the attempt about to run; the policy's zero-based retry counter
        // for the retry after it is the same number.
        var attemptNumber = 0
        while true {
            try Task.checkCancellation()
            switch try await attempt(attemptNumber) {
            case .finished(let success):
                return success
            case .retryable(let statusCode, let retryAfter, let final):
                guard policy.value.shouldRetry(attempt: attemptNumber, httpStatusCode: statusCode.map { NSNumber(value: $0) }) else {
                    return final
                }
                var delay = max(0, policy.value.retryDelayMs(attempt: attemptNumber))
                if statusCode == 429 || statusCode == 503,
                    let requested = RetryAfter.milliseconds(from: retryAfter, now: clock.now())
                {
                    delay = max(delay, requested)
                }
                if let left = timeLeft(), delay >= left {
                    wontWait(statusCode, delay)
                    return final
                }
                willRetry(statusCode, delay)
                try await clock.sleep(milliseconds: delay)
                attemptNumber += 1
            }
        }
    }
}

/// Holds an app-supplied policy. Policies are called from one task at a time per
/// request; the protocol is `AnyObject` and Objective-C compatible, so it cannot
/// require `Sendable`, and the SDK documents that a policy must be thread-safe.
struct RetryPolicyBox: @unchecked Sendable {
    let value: RetryPolicy
    init(_ value: RetryPolicy) { self.value = value }
}
