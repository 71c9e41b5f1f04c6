import Foundation

extension ZeroPiiConfiguration {
    /// How single tokenize calls are gathered into batch requests when
    /// ``ZeroPiiConfiguration/coalescing`` is set.
    ///
    /// The first single call opens a window of ``window`` seconds; every single call
    /// that arrives meanwhile joins it, and when the window closes (or
    /// ``maximumBatchSize`` distinct values have joined, whichever comes first) the
    /// values travel in one batch request. A value already waiting or in flight is
    /// not sent again: its callers share one slot and one answer.
    ///
    /// Each caller gets what it would have got alone: its value's token, `exists`,
    /// `newlyCreated` and `dataType` as the server reported them for that value's item,
    /// on its own callback queue (or task), exactly once. Two differences follow from
    /// sharing, and only for callers of the same value at the same time: both get the
    /// flags of the one item sent, so both may see `newlyCreated` where, one after the
    /// other, the second would have seen `exists`.
    ///
    /// A batch the server rejects as a whole with 400 or 413 (one empty or oversized
    /// value is enough) is split in halves and each half sent again, down to single
    /// values, so a bad value fails only its own callers; this costs at most about twice
    /// the requests that one-request-per-call would have made. Each halving is one more
    /// round trip, one after the other: when a batch of n values holds a rejected value,
    /// its other callers have their answers after up to about log2(n) + 1 round trips
    /// (11 for 1000 values), and a ``ZeroPiiConfiguration/callTimeout`` shorter than
    /// that ends their wait first. Other failures (network,
    /// authentication, 5xx after the ``/ZeroPiiRetry/RetryPolicy``) concern the whole
    /// request and reach every caller in it. A value that is alone when its window
    /// closes goes to the single-value endpoint, as without coalescing.
    ///
    /// A caller's task cancellation and ``ZeroPiiConfiguration/callTimeout`` end that
    /// caller's wait at once (kinds ``/ZeroPiiModels/ZeroPiiErrorKind/cancelled`` and
    /// ``/ZeroPiiModels/ZeroPiiErrorKind/timeout``) and nobody else's: the shared
    /// request keeps going for the others. The window is measured on
    /// ``ZeroPiiConfiguration/tokenClock``, so tests can close it without waiting.
    public struct Coalescing: Sendable, Equatable {
        /// How long the first call of a batch waits for others, in seconds. Default:
        /// 0.005 (5 ms), short against a network round trip. Zero, negative and NaN
        /// mean no wait beyond the calls already started on other threads; values
        /// above 1 s are treated as 1 s.
        public var window: TimeInterval
        /// The most distinct values in one request, from 1 to
        /// ``ZeroPiiSDK/maximumBatchSize`` (1000). Default: 1000. A full batch is sent
        /// at once, without waiting for the window to close. Values outside the range are
        /// clamped to it.
        public var maximumBatchSize: Int

        /// Settings for coalescing; the defaults suit most apps and servers.
        ///
        /// - Parameters:
        ///   - window: seconds the first call of a batch waits for others (default 5 ms).
        ///   - maximumBatchSize: the most distinct values per request, 1 to 1000 (default 1000).
        public init(window: TimeInterval = 0.005, maximumBatchSize: Int = ZeroPiiSDK.maximumBatchSize) {
            self.window = window
            self.maximumBatchSize = maximumBatchSize
        }

        /// ``window`` as the coalescer uses it: 0 to 1 s.
        var effectiveWindow: TimeInterval {
            guard window > 0 else { return 0 }
            return min(window, 1)
        }

        /// ``maximumBatchSize`` clamped to 1...1000.
        var effectiveMaximumBatchSize: Int {
            min(max(maximumBatchSize, 1), ZeroPiiSDK.maximumBatchSize)
        }
    }
}
