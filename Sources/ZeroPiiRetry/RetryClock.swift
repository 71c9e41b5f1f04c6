import Foundation

/// What the retry loop needs from time: the current wall-clock date (to read HTTP-date
/// `Retry-After` values) and a cancellable sleep. Tests inject a clock that records
/// sleeps instead of waiting.
public protocol RetryClock: Sendable {
    /// The current date.
    func now() -> Date
    /// Waits `milliseconds`; throws `CancellationError` if the task is cancelled meanwhile.
    /// Zero or negative does not wait; any positive value up to `Int.max` must be waited
    /// without overflow.
    func sleep(milliseconds: Int) async throws
}

/// The real clock: `Date()` and `Task.sleep`.
public struct SystemRetryClock: RetryClock {
    /// The system's clock.
    public init() {}

    public func now() -> Date { Date() }

    /// Waits in steps of at most a day, so no delay overflows the nanosecond count.
    public func sleep(milliseconds: Int) async throws {
        guard milliseconds > 0 else {
            try Task.checkCancellation()
            return
        }
        var remaining = milliseconds
        while remaining > 0 {
            let step = min(remaining, 86_400_000)
            try await Task.sleep(nanoseconds: UInt64(step) * 1_000_000)
            remaining -= step
        }
    }
}
