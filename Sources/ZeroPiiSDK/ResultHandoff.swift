import Foundation

/// Carries a result from the task that made it to the callback queue through a lock, so
/// that the hand-over is ordered by something every race detector sees: ThreadSanitizer
/// reports a result's fields as raced between the two threads when only
/// `DispatchQueue.async` stands between them.
final class ResultHandoff<Result>: @unchecked Sendable {
    // Sendable: `result` is written once, in `init`, and read under `lock`.
    private let lock = NSLock()
    private var result: Result

    init(_ result: Result) {
        lock.lock()
        self.result = result
        lock.unlock()
    }

    func take() -> Result { lock.withLock { result } }
}
