import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// One provider fetch that many requests wait for.
///
/// Each waiter waits on its own: a waiter whose task is cancelled stops waiting at once
/// with `CancellationError`, while the fetch goes on for the others (and its token is
/// still cached). Awaiting a shared `Task`'s value instead would ignore the waiter's
/// cancellation until the provider answered.
final class TokenFetch: Sendable {
    let generation: Int
    private let state = Locked(State())

    private struct State {
        var outcome: Result<AccessToken, Error>?
        var waiters: [Int: CheckedContinuation<AccessToken, Error>] = [:]
        var nextWaiter = 0
    }

    init(generation: Int) {
        self.generation = generation
    }

    /// The fetched token, or the fetch's error; `CancellationError` as soon as the
    /// calling task is cancelled.
    func value() async throws -> AccessToken {
        let waiter = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<AccessToken, Error>) in
                let ready: Result<AccessToken, Error>? = state.withLock { state in
                    if let outcome = state.outcome { return outcome }
                    // The task's cancelled flag is set before its handler runs, so a
                    // cancellation that came before this point is seen here, and one
                    // that comes later finds the waiter registered.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[waiter] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let cancelled = state.withLock { $0.waiters.removeValue(forKey: waiter) }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Hands `result` to every waiter, and to any that come later.
    func complete(with result: Result<AccessToken, Error>) {
        let waiting: [CheckedContinuation<AccessToken, Error>] = state.withLock { state in
            guard state.outcome == nil else { return [] }
            state.outcome = result
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        waiting.forEach { $0.resume(with: result) }
    }
}
