import Foundation

/// Runs one call's pipeline and ends the call at the first of three events: the
/// pipeline finishes, the call's time limit passes, or the caller's task is cancelled.
///
/// The pipeline runs in a task of its own, so the call ends on time even while a step
/// ignores cancellation (an app's transport or token provider): the result is delivered
/// at once and the pipeline task is cancelled, which stops it before its next request.
/// The time limit is a deadline in the client's ``CallDeadlines``, watched by one timer
/// for all calls, so a call that finishes in time starts one task (its pipeline) and
/// cancels none: no sleeping task is woken just to be told it is not needed.
enum BoundedCall {
    /// - Parameters:
    ///   - timeLimit: seconds the call may take; nil for no limit, zero for none at all.
    ///   - deadlines: the client's deadlines, on its monotonic clock (injectable in tests).
    ///   - pipeline: the call's work.
    static func run<Success: Sendable>(
        timeLimit: TimeInterval?,
        deadlines: CallDeadlines,
        _ pipeline: @escaping @Sendable () async -> Result<Success, RequestFailure>
    ) async -> Result<Success, RequestFailure> {
        if let timeLimit, timeLimit <= 0 {
            return .failure(.timedOut(after: timeLimit))
        }
        let outcome = FirstOutcome<Success>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Success, RequestFailure>, Never>) in
                guard outcome.arm(continuation) else { return }
                if let timeLimit {
                    let deadline = deadlines.register(after: timeLimit) { outcome.finish(.failure(.timedOut(after: timeLimit))) }
                    outcome.track(deadline, in: deadlines)
                }
                outcome.track(Task { outcome.finishFromPipeline(await pipeline()) })
            }
        } onCancel: {
            outcome.finish(.failure(.cancelled))
        }
    }
}

/// The first result of a call, whoever delivers it. When the time limit or a
/// cancellation comes first, the pipeline task is cancelled; when the pipeline comes
/// first, its deadline is removed and nothing is cancelled.
private final class FirstOutcome<Success: Sendable>: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<Success, RequestFailure>, Never>?
    private var result: Result<Success, RequestFailure>?
    private var pipeline: Task<Void, Never>?
    private var deadline: (registration: CallDeadlines.Registration, deadlines: CallDeadlines)?

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

    /// The pipeline task, to cancel if the call ends another way (at once if it has).
    func track(_ task: Task<Void, Never>) {
        let ended: Bool = lock.withLock {
            if result != nil { return true }
            pipeline = task
            return false
        }
        if ended { task.cancel() }
    }

    /// The call's deadline, to remove when the call ends (at once if it has).
    func track(_ registration: CallDeadlines.Registration, in deadlines: CallDeadlines) {
        let ended: Bool = lock.withLock {
            if result != nil { return true }
            deadline = (registration, deadlines)
            return false
        }
        if ended { deadlines.remove(registration) }
    }

    /// Delivers the pipeline's own result unless another one came first. The pipeline
    /// task is ending anyway, so it is not cancelled.
    func finishFromPipeline(_ result: Result<Success, RequestFailure>) {
        finish(result, cancellingPipeline: false)
    }

    /// Delivers `result` (a time limit or a cancellation) unless another one came first,
    /// and cancels the pipeline.
    func finish(_ result: Result<Success, RequestFailure>) {
        finish(result, cancellingPipeline: true)
    }

    private func finish(_ result: Result<Success, RequestFailure>, cancellingPipeline: Bool) {
        let ended:
            (
                waiting: CheckedContinuation<Result<Success, RequestFailure>, Never>?, running: Task<Void, Never>?,
                deadline: (registration: CallDeadlines.Registration, deadlines: CallDeadlines)?
            )? = lock.withLock {
                guard self.result == nil else { return nil }
                self.result = result
                defer {
                    continuation = nil
                    pipeline = nil
                    deadline = nil
                }
                return (continuation, pipeline, deadline)
            }
        guard let ended else { return }
        if let deadline = ended.deadline { deadline.deadlines.remove(deadline.registration) }
        if cancellingPipeline { ended.running?.cancel() }
        ended.waiting?.resume(returning: result)
    }
}
