import Foundation

/// Lets tests that reconfigure the shared `ZeroPiiSDK` instance take turns.
///
/// `ZeroPiiSDK.initialize` configures one process-wide instance, and test runners run
/// tests in parallel, even across test targets in the same process. Wrap the body of
/// every test that calls `initialize` in ``withExclusiveAccess(_:)`` on the same gate
/// (``sharedSDK``) and they run one at a time, while the rest of the suite stays parallel.
public final class ExclusiveTestGate: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.

    /// The gate for tests that use the shared SDK instance.
    public static let sharedSDK = ExclusiveTestGate()

    private let lock = NSLock()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

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
            let granted: Bool = lock.withLock {
                if busy {
                    waiting.append(continuation)
                    return false
                }
                busy = true
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            if waiting.isEmpty {
                busy = false
                return nil
            }
            return waiting.removeFirst()
        }
        next?.resume()
    }
}
