import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiAuth)
import ZeroPiiAuth
#endif

/// A `TokenClock` that only moves when the test says so: token expiry, the provider
/// timeout and the SDK's call time limit (`ZeroPiiConfiguration.callTimeout`) can be
/// tested without waiting.
///
/// ```swift
/// let clock = ManualTokenClock()
/// configuration.tokenClock = clock
/// clock.advance(by: 3600)   // an hour later, instantly
/// ```
public final class ManualTokenClock: TokenClock, @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var current: TimeInterval
    private var sleepers: [(id: UUID, deadline: TimeInterval, continuation: CheckedContinuation<Void, Error>)] = [] {
        didSet { sleeperCounts.change { $0 = sleepers.count } }
    }
    /// The count of sleepers, for ``waitForSleepers(_:atMost:)`` to wait on.
    private let sleeperCounts = Watched(0)

    /// A clock reading `start` seconds.
    public init(start: TimeInterval = 1_000) {
        current = start
    }

    public func now() -> TimeInterval { lock.withLock { current } }

    /// How many sleeps are waiting for the clock to move.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Returns true once exactly `count` sleeps wait for the clock to move (at once if
    /// they do), or false if `seconds` of real time pass first or the waiting task is
    /// cancelled. A test waits here before it moves the clock, so that the code under
    /// test has started its sleep; the wait is told of every change, it does not poll,
    /// and its limit runs on a Dispatch timer, not on the cooperative pool.
    package func waitForSleepers(_ count: Int, atMost seconds: TimeInterval) async -> Bool {
        await sleeperCounts.wait(atMost: seconds) { $0 == count }
    }

    /// Moves the clock forward and wakes every sleep whose deadline has passed.
    public func advance(by seconds: TimeInterval) {
        let due: [CheckedContinuation<Void, Error>] = lock.withLock {
            current += seconds
            let ready = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return ready.map(\.continuation)
        }
        due.forEach { $0.resume() }
    }

    public func sleep(seconds: TimeInterval) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let outcome: Result<Void, Error>? = lock.withLock {
                    // A cancellation that came before this point has set the task's flag
                    // already (its handler found nothing to cancel); a later one finds the
                    // sleeper registered.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    let deadline = current + seconds
                    if !(deadline > current) { return .success(()) }
                    sleepers.append((id, deadline, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> CheckedContinuation<Void, Error>? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }
}
