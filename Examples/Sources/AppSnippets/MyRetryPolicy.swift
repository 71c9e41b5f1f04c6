import CleverTapZeroPiiSDK
import Foundation

// API Reference, RetryPolicy: up to three retries of network errors, 429, 500, 502, 503 and
// 504, waiting 2 s, 4 s, 8 s.
class MyRetryPolicy: NSObject, RetryPolicy {
    func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool {
        guard attempt < 3 else { return false }
        guard let code = httpStatusCode else { return true }  // network error → retry
        return [429, 500, 502, 503, 504].contains(code.intValue)
    }

    func retryDelayMs(attempt: Int) -> Int {
        return 1000 * (1 << (attempt + 1))  // 2 000 ms, 4 000 ms, 8 000 ms …
    }
}
