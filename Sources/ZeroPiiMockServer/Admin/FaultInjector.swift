import Foundation
import ZeroPiiLocking

/// Misbehaviour on demand, for testing clients against a bad day. Faults apply to the
/// tokenize endpoints only, in the order they were queued; counted faults are used up
/// one request at a time.
public final class FaultInjector: Sendable {
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

    private struct State {
        var queue: [Fault] = []
        var latency: TimeInterval = 0
    }

    private let state = Locked(State())

    /// An injector with no faults queued and no latency.
    public init() {}

    /// Queues `fault` for the next `count` tokenize requests.
    public func inject(_ fault: Fault, count: Int = 1) {
        state.withLock { $0.queue.append(contentsOf: Array(repeating: fault, count: max(0, count))) }
    }

    /// Delays every tokenize response by `seconds` (0 turns it off).
    public func setLatency(_ seconds: TimeInterval) {
        state.withLock { $0.latency = max(0, seconds) }
    }

    /// Clears every queued fault and the latency.
    public func reset() {
        state.withLock { state in
            state.queue.removeAll()
            state.latency = 0
        }
    }

    /// The fault for the request being handled now, if any, and the latency to add.
    func next() -> (fault: Fault?, latency: TimeInterval) {
        state.withLock { state in (state.queue.isEmpty ? nil : state.queue.removeFirst(), state.latency) }
    }
}
