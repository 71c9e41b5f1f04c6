import Foundation

// Each of these is a module of its own under Swift Package Manager; CocoaPods compiles
// every subspec into the one CleverTapZeroPiiSDK module, where they do not exist.
#if canImport(ZeroPiiAuth)
import ZeroPiiAuth
#endif
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
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
public final class ManualTokenClock: TokenClock {
    private let state: Locked<State>
    /// The count of sleepers, for ``waitForSleepers(_:atMost:)`` to wait on.
    private let sleeperCounts: Watched<Int>

    private struct State {
        var current: TimeInterval
        var sleepers: [(id: UUID, deadline: TimeInterval, continuation: CheckedContinuation<Void, Error>)] = [] {
            didSet { sleeperCounts.change { $0 = sleepers.count } }
        }
        /// The clock's `sleeperCounts`, told of every change to the list inside the clock's
        /// lock, so the count never disagrees with the list. Its waiters are those of
        /// `waitForSleepers`, whose condition only compares the count, and waking them only
        /// schedules their tasks.
        let sleeperCounts: Watched<Int>
    }

    /// A clock reading `start` seconds.
    public init(start: TimeInterval = 1_000) {
        let sleeperCounts = Watched(0)
        self.sleeperCounts = sleeperCounts
        state = Locked(State(current: start, sleeperCounts: sleeperCounts))
    }

    public func now() -> TimeInterval { state.withLock { $0.current } }

    /// How many sleeps are waiting for the clock to move.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

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
        let due: [CheckedContinuation<Void, Error>] = state.withLock { state in
            state.current += seconds
            let current = state.current
            let ready = state.sleepers.filter { $0.deadline <= current }
            state.sleepers.removeAll { $0.deadline <= current }
            return ready.map(\.continuation)
        }
        due.forEach { $0.resume() }
    }

    public func sleep(seconds: TimeInterval) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let outcome: Result<Void, Error>? = state.withLock { state in
                    // A cancellation that came before this point has set the task's flag
                    // already (its handler found nothing to cancel); a later one finds the
                    // sleeper registered.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    let deadline = state.current + seconds
                    if !(deadline > state.current) { return .success(()) }
                    state.sleepers.append((id, deadline, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Void, Error>? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }
}
