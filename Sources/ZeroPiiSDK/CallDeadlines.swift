import Foundation

// Each of these is a module of its own under Swift Package Manager; CocoaPods compiles
// every subspec into the one CleverTapZeroPiiSDK module, where they do not exist.
#if canImport(ZeroPiiAuth)
import ZeroPiiAuth
#endif
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// The time limits of every call of one client, watched by one sleep of the clock.
///
/// A call registers its deadline when it starts and removes it when it ends. One timer
/// task sleeps until the earliest deadline registered; when it wakes it ends the calls
/// that are due, then sleeps until the next pending deadline, or stops when none is
/// left. So a call that finishes in time costs an insert and a removal under a lock:
/// no task of its own, and no sleeping task to cancel, which would wake a thread. The
/// timer wakes once per deadline it was set for, however many calls came and went in
/// between (with the default 120 s limit, once in two minutes at most).
///
/// Deadlines come from one clock and one limit per client, so a later call's deadline
/// is never earlier than one already registered; one that is (a clock moved back by
/// a test, another limit) replaces the timer with one set for it.
final class CallDeadlines: Sendable {
    private let clock: any TokenClock
    /// Internal rather than private so that tests can look at the timer (their extension
    /// of this type reads it).
    let state = Locked(State())

    struct State {
        var pending: [Int: Deadline] = [:]
        var lastID = 0
        /// The running timer: when it wakes, and which one it is (a replaced timer finds
        /// its number out of date and stops). Nil when no timer runs.
        var timer: (wakeAt: TimeInterval, number: Int, task: Task<Void, Never>)?
        var timersStarted = 0
    }

    struct Deadline {
        let time: TimeInterval
        let expire: @Sendable () -> Void
    }

    /// A registered deadline, to remove when its call ends first.
    struct Registration: Sendable {
        fileprivate let id: Int
    }

    /// - Parameter clock: the client's monotonic clock (the token clock; a manual one in tests).
    init(clock: any TokenClock) {
        self.clock = clock
    }

    /// How many deadlines are registered and not yet removed or expired.
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Whether a timer task is running (asleep, or ending the calls that are due).
    var timerIsRunning: Bool { state.withLock { $0.timer != nil } }

    /// Calls `expire` once `seconds` have passed on the clock, unless the registration is
    /// removed first. `expire` runs on the timer's task, outside any lock.
    func register(after seconds: TimeInterval, expire: @escaping @Sendable () -> Void) -> Registration {
        let time = clock.now() + seconds
        let (registration, replaced): (Registration, Task<Void, Never>?) = state.withLock { state in
            state.lastID &+= 1
            state.pending[state.lastID] = Deadline(time: time, expire: expire)
            var replaced: Task<Void, Never>?
            if let timer = state.timer {
                guard time < timer.wakeAt else { return (Registration(id: state.lastID), nil) }
                replaced = timer.task
            }
            startTimer(wakeAt: time, in: &state)
            return (Registration(id: state.lastID), replaced)
        }
        replaced?.cancel()
        return registration
    }

    /// Forgets a deadline whose call ended; nothing happens if it expired already. The
    /// timer is left asleep: waking it would cost more than its one later wake-up.
    func remove(_ registration: Registration) {
        _ = state.withLock { $0.pending.removeValue(forKey: registration.id) }
    }

    /// Starts a timer for `wakeAt`; `state` is the value inside the lock.
    private func startTimer(wakeAt: TimeInterval, in state: inout State) {
        state.timersStarted += 1
        let number = state.timersStarted
        // Detached: the timer serves every caller, so it takes none of the registering
        // caller's priority, task-local values or actor.
        let task = Task.detached { [self] in await runTimer(number: number, wakeAt: wakeAt) }
        state.timer = (wakeAt, number, task)
    }

    private func runTimer(number: Int, wakeAt: TimeInterval) async {
        var target = wakeAt
        while true {
            do {
                try await clock.sleep(seconds: target - clock.now())
            } catch {
                return  // replaced by a timer for an earlier deadline
            }
            // Due is everything up to what the sleep was for (`target`) or, when the
            // timer woke later than that, up to the clock's reading: a burst of calls that
            // registered microseconds apart then ends in one pass, not one sleep and one
            // scan of all pending deadlines each (with thousands of calls expiring
            // together that took seconds, and made later deadlines fire late). `target`
            // stays the floor, so rounding cannot leave a deadline pending for ever.
            let dueBy = Swift.max(target, clock.now())
            let (due, next): ([Deadline], TimeInterval?) = state.withLock { state in
                guard state.timer?.number == number else { return ([], nil) }
                let dueIDs = state.pending.filter { $0.value.time <= dueBy }.map(\.key)
                let due = dueIDs.compactMap { state.pending.removeValue(forKey: $0) }
                guard let earliest = state.pending.values.lazy.map(\.time).min() else {
                    state.timer = nil
                    return (due, nil)
                }
                state.timer?.wakeAt = earliest
                return (due, earliest)
            }
            due.forEach { $0.expire() }
            guard let next else { return }
            target = next
        }
    }
}
