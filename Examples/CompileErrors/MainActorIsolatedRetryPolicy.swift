// Must not compile (Scripts/run-example.sh checks): a retry policy whose conformance is
// isolated to the main actor would be called by the SDK from its own threads. Mark the
// two methods `nonisolated` instead.
// expected-error: cannot form main actor-isolated conformance
import CleverTapZeroPiiSDK
import Foundation

@MainActor
final class ScreenRetryPolicy: @MainActor RetryPolicy {
    var maximumRetries = 3

    func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool { attempt < maximumRetries }

    func retryDelayMs(attempt: Int) -> Int { 500 }
}
