import Dispatch
import Foundation

extension ZeroPiiSDK {
    /// Runs `work` in the background and hands its result to `callback` exactly once: on
    /// `isolation`, the caller's actor, when there is one (the callback may touch that
    /// actor's state, and Swift 6 checks that it runs there), else on the configured
    /// queue. The configuration is read once, here: a call runs with the client and calls
    /// back on the queue of the same `initialize`.
    func deliver<Result: Sendable>(
        isolation: isolated (any Actor)?,
        _ callback: @escaping (Result) -> Void,
        _ work: @escaping @Sendable (TokenizationClient) async -> Result
    ) {
        let engine = currentEngine
        let box = CallbackBox(callback)
        // An app's transport runs in a pipeline task of its own (BoundedCall), so the
        // callback comes at the time limit even while that transport blocks its thread.
        let run: @Sendable () async -> Result = { await work(engine.client) }
        guard isolation != nil else {
            Task.detached {
                let result = ResultHandoff(await run())
                engine.callbackQueue.async { box.callback(result.take()) }
            }
            return
        }
        // Capturing the isolated parameter makes the task run on that actor; `work` is
        // nonisolated and async, so the request itself still runs off it.
        Task {
            _ = isolation
            let result = await run()
            box.callback(result)
        }
    }
}
