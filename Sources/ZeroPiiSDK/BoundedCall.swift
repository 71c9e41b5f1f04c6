import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// Runs one call's pipeline and ends the call at the first of three events: the
/// pipeline finishes, the call's time limit passes, or the caller's task is cancelled.
///
/// Contract:
/// - The pipeline runs in a task of its own, so the call ends on time even while a step
///   ignores cancellation (an app's transport or token provider) or blocks its thread;
///   the pipeline task is then cancelled, which stops it before its next request.
/// - The time limit is a deadline in the client's ``CallDeadlines``, one timer for all
///   calls, so a call that finishes in time wakes no sleeping task.
/// - The pipeline task is an ordinary task on the global executor, started before the
///   call waits for its outcome; a result that comes before the wait is left for it.
///   It is not started with `Task.immediate` (on the caller's thread until its first
///   suspension), which saved a hop between threads: under load, such pipelines of the
///   full test suite sometimes never ran (calls ended at their 120 s limit with no
///   request sent), on Swift 6.3.1 for Linux.
enum BoundedCall {
    /// - Parameters:
    ///   - timeLimit: seconds the call may take; nil for no limit, zero for none at all.
    ///   - reportedLimit: the limit a time-out names, when `timeLimit` is what is left of
    ///     it (nil: `timeLimit` itself).
    ///   - deadlines: the client's deadlines, on its monotonic clock (injectable in tests).
    ///   - pipeline: the call's work.
    static func run<Success: Sendable>(
        timeLimit: TimeInterval?,
        reportedLimit: TimeInterval? = nil,
        deadlines: CallDeadlines,
        _ pipeline: @escaping @Sendable () async -> Result<Success, RequestFailure>
    ) async -> Result<Success, RequestFailure> {
        if let timeLimit, timeLimit <= 0 {
            return .failure(.timedOut(after: reportedLimit ?? timeLimit))
        }
        if Task.isCancelled { return .failure(.cancelled) }
        let outcome = FirstOutcome<Success>()
        if let timeLimit {
            // The message is written only for a call that does time out.
            let deadline = deadlines.register(after: timeLimit) { outcome.finish(.failure(.timedOut(after: reportedLimit ?? timeLimit))) }
            outcome.track(deadline, in: deadlines)
        }
        outcome.track(Task { outcome.finishFromPipeline(await pipeline()) })
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Success, RequestFailure>, Never>) in
                outcome.arm(continuation)
            }
        } onCancel: {
            outcome.finish(.failure(.cancelled))
        }
    }
}

/// The first result of a call, whoever delivers it. When the time limit or a
/// cancellation comes first, the pipeline task is cancelled; when the pipeline comes
/// first, its deadline is removed and nothing is cancelled.
private final class FirstOutcome<Success: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<Success, RequestFailure>, Never>?
        var result: Result<Success, RequestFailure>?
        var pipeline: Task<Void, Never>?
        /// Whether the pipeline delivered, so its task has nothing left to cancel.
        var pipelineFinished = false
        var deadline: (registration: CallDeadlines.Registration, deadlines: CallDeadlines)?
    }

    private let state = Locked(State())

    /// Keeps `continuation` for the result, or resumes it at once when the call already
    /// ended (the pipeline or the time limit came before the wait).
    func arm(_ continuation: CheckedContinuation<Result<Success, RequestFailure>, Never>) {
        let ready: Result<Success, RequestFailure>? = state.withLock { state in
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }

    /// The pipeline task, to cancel if the call ends another way (at once if it has).
    /// A pipeline that already delivered is not cancelled.
    func track(_ task: Task<Void, Never>) {
        let cancel: Bool = state.withLock { state in
            if state.result != nil { return !state.pipelineFinished }
            state.pipeline = task
            return false
        }
        if cancel { task.cancel() }
    }

    /// The call's deadline, to remove when the call ends (at once if it has).
    func track(_ registration: CallDeadlines.Registration, in deadlines: CallDeadlines) {
        let ended: Bool = state.withLock { state in
            if state.result != nil { return true }
            state.deadline = (registration, deadlines)
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
            )? = state.withLock { state in
                if !cancellingPipeline { state.pipelineFinished = true }
                guard state.result == nil else { return nil }
                state.result = result
                defer {
                    state.continuation = nil
                    state.pipeline = nil
                    state.deadline = nil
                }
                return (state.continuation, state.pipeline, state.deadline)
            }
        guard let ended else { return }
        if let deadline = ended.deadline { deadline.deadlines.remove(deadline.registration) }
        if cancellingPipeline { ended.running?.cancel() }
        ended.waiting?.resume(returning: result)
    }
}
