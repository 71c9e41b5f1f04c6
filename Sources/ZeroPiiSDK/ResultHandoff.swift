import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// Carries a result from the task that made it to the callback queue through a lock, so
/// that the hand-over is ordered by something every race detector sees: ThreadSanitizer
/// reports a result's fields as raced between the two threads when only
/// `DispatchQueue.async` stands between them.
final class ResultHandoff<Result: Sendable>: Sendable {
    private let result: Locked<Result>

    init(_ result: Result) {
        self.result = Locked(result)
    }

    func take() -> Result { result.withLock { $0 } }
}
