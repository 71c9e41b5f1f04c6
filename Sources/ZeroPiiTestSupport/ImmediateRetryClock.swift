import Foundation

// Each of these is a module of its own under Swift Package Manager; CocoaPods compiles
// every subspec into the one CleverTapZeroPiiSDK module, where they do not exist.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif
#if canImport(ZeroPiiRetry)
import ZeroPiiRetry
#endif

/// A `RetryClock` that never waits and remembers the back-off delays it was asked
/// for, so retry behaviour can be tested at full speed.
public final class ImmediateRetryClock: RetryClock {
    private let recorded = Locked<[Int]>([])
    private let fixedNow: Date?

    /// - Parameter now: the date `now()` returns; the real date when nil.
    public init(now: Date? = nil) {
        fixedNow = now
    }

    /// The delays requested so far, in milliseconds.
    public var sleeps: [Int] { recorded.withLock { $0 } }

    public func now() -> Date { fixedNow ?? Date() }

    public func sleep(milliseconds: Int) async throws {
        recorded.withLock { $0.append(milliseconds) }
        try Task.checkCancellation()
    }
}
