import Foundation

/// Misbehaviour on demand, for testing clients against a bad day. Faults apply to the
/// tokenize endpoints only, in the order they were queued; counted faults are used up
/// one request at a time.
public final class FaultInjector: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.

    /// One kind of misbehaviour.
    public enum Fault: Sendable, Equatable {
        /// Answer with this status (and an error body), optionally with `Retry-After`.
        case status(Int, retryAfter: String?)
        /// Close the connection without answering.
        case dropConnection
        /// Answer 200 with a corrupted response ciphertext (either envelope).
        case corruptCiphertext
        /// Answer an encrypted request (either envelope) with a plaintext 200 and no
        /// encryption header.
        case downgrade
    }

    private let lock = NSLock()
    private var queue: [Fault] = []
    private var latency: TimeInterval = 0

    /// An injector with no faults queued and no latency.
    public init() {}

    /// Queues `fault` for the next `count` tokenize requests.
    public func inject(_ fault: Fault, count: Int = 1) {
        lock.withLock { queue.append(contentsOf: Array(repeating: fault, count: max(0, count))) }
    }

    /// Delays every tokenize response by `seconds` (0 turns it off).
    public func setLatency(_ seconds: TimeInterval) {
        lock.withLock { latency = max(0, seconds) }
    }

    /// Clears every queued fault and the latency.
    public func reset() {
        lock.withLock {
            queue.removeAll()
            latency = 0
        }
    }

    /// The fault for the request being handled now, if any, and the latency to add.
    func next() -> (fault: Fault?, latency: TimeInterval) {
        lock.withLock { (queue.isEmpty ? nil : queue.removeFirst(), latency) }
    }
}
