import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiAuth)
import ZeroPiiAuth
#endif

/// Runs one call's pipeline and ends the call at the first of three events: the
/// pipeline finishes, the call's time limit passes, or the caller's task is cancelled.
///
/// The pipeline runs in a task of its own, so the call ends on time even while a step
/// ignores cancellation (an app's transport or token provider): the result is delivered
/// at once and the pipeline task is cancelled, which stops it before its next request.
enum BoundedCall {
    /// - Parameters:
    ///   - timeLimit: seconds the call may take; nil for no limit, zero for none at all.
    ///   - clock: measures the limit (the monotonic token clock, injectable in tests).
    ///   - pipeline: the call's work.
    static func run<Success: Sendable>(
        timeLimit: TimeInterval?,
        clock: any TokenClock,
        _ pipeline: @escaping @Sendable () async -> Result<Success, RequestFailure>
    ) async -> Result<Success, RequestFailure> {
        if let timeLimit, timeLimit <= 0 {
            return .failure(.timedOut(after: timeLimit))
        }
        let outcome = FirstOutcome<Success>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Success, RequestFailure>, Never>) in
                guard outcome.arm(continuation) else { return }
                outcome.track(Task { outcome.finish(await pipeline()) })
                if let timeLimit {
                    outcome.track(
                        Task {
                            do {
                                try await clock.sleep(seconds: timeLimit)
                            } catch {
                                return
                            }
                            outcome.finish(.failure(.timedOut(after: timeLimit)))
                        })
                }
            }
        } onCancel: {
            outcome.finish(.failure(.cancelled))
        }
    }
}

/// The first result of a call, whoever delivers it; cancels the call's tasks once there
/// is one.
private final class FirstOutcome<Success: Sendable>: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<Success, RequestFailure>, Never>?
    private var result: Result<Success, RequestFailure>?
    private var tasks: [Task<Void, Never>] = []

    /// Keeps `continuation` for the result; resumes it at once and returns false when the
    /// call already ended (cancelled before it started).
    func arm(_ continuation: CheckedContinuation<Result<Success, RequestFailure>, Never>) -> Bool {
        let ready: Result<Success, RequestFailure>? = lock.withLock {
            if let result { return result }
            self.continuation = continuation
            return nil
        }
        guard let ready else { return true }
        continuation.resume(returning: ready)
        return false
    }

    /// A task to cancel when the call ends (at once if it already has).
    func track(_ task: Task<Void, Never>) {
        let ended: Bool = lock.withLock {
            if result != nil { return true }
            tasks.append(task)
            return false
        }
        if ended { task.cancel() }
    }

    /// Delivers `result` unless another one came first.
    func finish(_ result: Result<Success, RequestFailure>) {
        let (waiting, running): (CheckedContinuation<Result<Success, RequestFailure>, Never>?, [Task<Void, Never>]) = lock.withLock {
            guard self.result == nil else { return (nil, []) }
            self.result = result
            defer {
                continuation = nil
                tasks = []
            }
            return (continuation, tasks)
        }
        running.forEach { $0.cancel() }
        waiting?.resume(returning: result)
    }
}
