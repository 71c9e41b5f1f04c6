import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// Lets tests that reconfigure the shared `ZeroPiiSDK` instance take turns.
///
/// `ZeroPiiSDK.initialize` configures one process-wide instance, and test runners run
/// tests in parallel, even across test targets in the same process. Wrap the body of
/// every test that calls `initialize` in ``withExclusiveAccess(_:)`` on the same gate
/// (``sharedSDK``) and they run one at a time, while the rest of the suite stays parallel.
public final class ExclusiveTestGate: Sendable {
    /// The gate for tests that use the shared SDK instance.
    public static let sharedSDK = ExclusiveTestGate()

    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// A gate of its own, for state other than the SDK's shared instance.
    public init() {}

    /// Runs `body` when no other holder of this gate is running.
    public func withExclusiveAccess<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted: Bool = state.withLock { state in
                if state.busy {
                    state.waiting.append(continuation)
                    return false
                }
                state.busy = true
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            if state.waiting.isEmpty {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
