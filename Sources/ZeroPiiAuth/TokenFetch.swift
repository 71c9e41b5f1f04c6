import Foundation

/// One provider fetch that many requests wait for.
///
/// Each waiter waits on its own: a waiter whose task is cancelled stops waiting at once
/// with `CancellationError`, while the fetch goes on for the others (and its token is
/// still cached). Awaiting a shared `Task`'s value instead would ignore the waiter's
/// cancellation until the provider answered.
final class TokenFetch: @unchecked Sendable {
    // Sendable: `generation` is immutable; the rest is guarded by `lock`.
    let generation: Int
    private let lock = NSLock()
    private var outcome: Result<AccessToken, Error>?
    private var waiters: [Int: CheckedContinuation<AccessToken, Error>] = [:]
    private var nextWaiter = 0

    init(generation: Int) {
        self.generation = generation
    }

    /// The fetched token, or the fetch's error; `CancellationError` as soon as the
    /// calling task is cancelled.
    func value() async throws -> AccessToken {
        let waiter = lock.withLock { () -> Int in
            nextWaiter += 1
            return nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<AccessToken, Error>) in
                let ready: Result<AccessToken, Error>? = lock.withLock {
                    if let outcome { return outcome }
                    // The task's cancelled flag is set before its handler runs, so a
                    // cancellation that came before this point is seen here, and one
                    // that comes later finds the waiter registered.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    waiters[waiter] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let cancelled = lock.withLock { waiters.removeValue(forKey: waiter) }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Hands `result` to every waiter, and to any that come later.
    func complete(with result: Result<AccessToken, Error>) {
        let waiting: [CheckedContinuation<AccessToken, Error>] = lock.withLock {
            guard outcome == nil else { return [] }
            outcome = result
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
        waiting.forEach { $0.resume(with: result) }
    }
}
