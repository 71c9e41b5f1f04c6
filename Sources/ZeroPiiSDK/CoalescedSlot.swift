import Foundation

// Each of these is a module of its own under Swift Package Manager; CocoaPods compiles
// every subspec into the one CleverTapZeroPiiSDK module, where they do not exist.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif
#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif

/// One value in a coalesced request and the callers waiting for it: the result is set
/// once, and every caller, whenever it started waiting, receives it once. A caller whose
/// task is cancelled leaves at once; the others keep waiting.
final class CoalescedSlot: Sendable {
    /// The value's wire string.
    let value: String
    private let state = Locked(State())

    private struct State {
        var result: TokenizeResult?
        var waiters: [Int: CheckedContinuation<TokenizeResult, Never>] = [:]
        var nextWaiter = 0
    }

    init(value: String) {
        self.value = value
    }

    /// The slot's result, once it is there; a cancelled result if the caller's task is
    /// cancelled first (the caller that times out is cancelled by ``BoundedCall``).
    func wait() async -> TokenizeResult {
        let waiter = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<TokenizeResult, Never>) in
                let ready: TokenizeResult? = state.withLock { state in
                    if let result = state.result { return result }
                    // A cancellation that came before this point has set the task's flag
                    // (its handler found no waiter to remove); a later one finds it.
                    if Task.isCancelled { return Self.cancelled }
                    state.waiters[waiter] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let leaving = state.withLock { $0.waiters.removeValue(forKey: waiter) }
            leaving?.resume(returning: Self.cancelled)
        }
    }

    /// Sets the result and hands it to every caller waiting. Only the first call counts.
    func deliver(_ result: TokenizeResult) {
        let waiting: [CheckedContinuation<TokenizeResult, Never>] = state.withLock { state in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiting.forEach { $0.resume(returning: result) }
    }

    private static var cancelled: TokenizeResult {
        TokenizeResult(
            errorMessage: RequestFailure.cancelled.message, errorKind: RequestFailure.cancelled.kind)
    }
}
