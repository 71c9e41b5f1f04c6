import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiRetry)
import ZeroPiiRetry
#endif

/// A `RetryClock` that never waits and remembers the back-off delays it was asked
/// for, so retry behaviour can be tested at full speed.
public final class ImmediateRetryClock: RetryClock, @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var recorded: [Int] = []
    private let fixedNow: Date?

    /// - Parameter now: the date `now()` returns; the real date when nil.
    public init(now: Date? = nil) {
        fixedNow = now
    }

    /// The delays requested so far, in milliseconds.
    public var sleeps: [Int] { lock.withLock { recorded } }

    public func now() -> Date { fixedNow ?? Date() }

    public func sleep(milliseconds: Int) async throws {
        lock.withLock { recorded.append(milliseconds) }
        try Task.checkCancellation()
    }
}
