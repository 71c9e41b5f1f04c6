import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// A value that tests change under a lock and wait on: every change resumes the tasks
/// waiting for a condition it made true, so a wait takes no thread and no polling.
/// (``ManualTokenClock`` keeps its count of sleepers in one.)
package final class Watched<Value: Sendable>: Sendable {
    private struct State {
        var current: Value
        var waiters: [(id: UUID, condition: @Sendable (Value) -> Bool, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    private let state: Locked<State>

    package init(_ value: Value) { state = Locked(State(current: value)) }

    package var value: Value { state.withLock { $0.current } }

    /// Changes the value and wakes the waiters it satisfies; returns what `body` returns.
    @discardableResult
    package func change<Returned>(_ body: (inout Value) -> Returned) -> Returned {
        let (returned, satisfied): (Returned, [CheckedContinuation<Bool, Never>]) = state.withLock { state in
            let returned = body(&state.current)
            let value = state.current
            let satisfied = state.waiters.filter { $0.condition(value) }.map(\.continuation)
            state.waiters.removeAll { $0.condition(value) }
            return (returned, satisfied)
        }
        satisfied.forEach { $0.resume(returning: true) }
        return returned
    }

    /// True once `condition` holds (at once if it does), false if `seconds` of real time
    /// pass first or the waiting task is cancelled. The limit runs on a Dispatch timer,
    /// so it ends the wait even while the cooperative pool is busy.
    package func wait(atMost seconds: TimeInterval, until condition: @escaping @Sendable (Value) -> Bool) async -> Bool {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let holds: Bool = state.withLock { state in
                    if condition(state.current) { return true }
                    state.waiters.append((id, condition, continuation))
                    return false
                }
                guard !holds else { return continuation.resume(returning: true) }
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in self?.endWait(id) }
                // A cancellation before the waiter was added found nothing to end.
                if Task.isCancelled { endWait(id) }
            }
        } onCancel: {
            endWait(id)
        }
    }

    /// Resumes the waiter `id` with false, unless it was resumed already.
    private func endWait(_ id: UUID) {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        waiter?.resume(returning: false)
    }
}
