import Foundation

/// A value that tests change under a lock and wait on: every change resumes the tasks
/// waiting for a condition it made true, so a wait takes no thread and no polling.
/// (``ManualTokenClock`` keeps its count of sleepers in one.)
package final class Watched<Value: Sendable>: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var current: Value
    private var waiters: [(id: UUID, condition: @Sendable (Value) -> Bool, continuation: CheckedContinuation<Bool, Never>)] = []

    package init(_ value: Value) { current = value }

    package var value: Value { lock.withLock { current } }

    /// Changes the value and wakes the waiters it satisfies; returns what `body` returns.
    @discardableResult
    package func change<Returned>(_ body: (inout Value) -> Returned) -> Returned {
        let (returned, satisfied): (Returned, [CheckedContinuation<Bool, Never>]) = lock.withLock {
            let returned = body(&current)
            let value = current
            let satisfied = waiters.filter { $0.condition(value) }.map(\.continuation)
            waiters.removeAll { $0.condition(value) }
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
                let holds: Bool = lock.withLock {
                    if condition(current) { return true }
                    waiters.append((id, condition, continuation))
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
        let waiter: CheckedContinuation<Bool, Never>? = lock.withLock {
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index).continuation
        }
        waiter?.resume(returning: false)
    }
}
