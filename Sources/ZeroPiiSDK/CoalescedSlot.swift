import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif

/// One value in a coalesced request and the callers waiting for it: the result is set
/// once, and every caller, whenever it started waiting, receives it once. A caller whose
/// task is cancelled leaves at once; the others keep waiting.
final class CoalescedSlot: @unchecked Sendable {
    // Sendable: the mutable state below is guarded by `lock`.
    private let lock = NSLock()
    /// The value's wire string.
    let value: String
    private var result: TokenizeResult?
    private var waiters: [Int: CheckedContinuation<TokenizeResult, Never>] = [:]
    private var nextWaiter = 0

    init(value: String) {
        self.value = value
    }

    /// The slot's result, once it is there; a cancelled result if the caller's task is
    /// cancelled first (the caller that times out is cancelled by ``BoundedCall``).
    func wait() async -> TokenizeResult {
        let waiter = lock.withLock { () -> Int in
            nextWaiter += 1
            return nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<TokenizeResult, Never>) in
                let ready: TokenizeResult? = lock.withLock {
                    if let result { return result }
                    // A cancellation that came before this point has set the task's flag
                    // (its handler found no waiter to remove); a later one finds it.
                    if Task.isCancelled { return Self.cancelled }
                    waiters[waiter] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let leaving = lock.withLock { waiters.removeValue(forKey: waiter) }
            leaving?.resume(returning: Self.cancelled)
        }
    }

    /// Sets the result and hands it to every caller waiting. Only the first call counts.
    func deliver(_ result: TokenizeResult) {
        let waiting: [CheckedContinuation<TokenizeResult, Never>] = lock.withLock {
            guard self.result == nil else { return [] }
            self.result = result
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        waiting.forEach { $0.resume(returning: result) }
    }

    private static var cancelled: TokenizeResult {
        TokenizeResult(
            errorMessage: RequestFailure.cancelled.message, errorKind: RequestFailure.cancelled.kind)
    }
}
