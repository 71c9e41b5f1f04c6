import Foundation
import ZeroPiiLocking

/// Misbehaviour on demand, for testing clients against a bad day. Faults apply to the
/// tokenize endpoints only, to requests that passed the bearer check, in the order they
/// were queued; counted faults are used up one request at a time. A queued fault takes
/// the same memory whatever its count, so no count can exhaust the server.
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

    /// The most requests one queued fault may apply to.
    public static let maximumCount = 1_000_000
    /// The longest latency that may be set, in seconds: long enough to test a client's
    /// attempts of more than a minute. (`POST /__admin/faults` takes up to 60 s.)
    public static let maximumLatency: TimeInterval = 600

    private struct State {
        /// Each fault with the number of requests it still applies to.
        var queue: [(fault: Fault, remaining: Int)] = []
        var latency: TimeInterval = 0
    }

    private let state = Locked(State())

    /// An injector with no faults queued and no latency.
    public init() {}

    /// Queues `fault` for the next `count` tokenize requests (at most ``maximumCount``;
    /// 0 or less queues nothing).
    public func inject(_ fault: Fault, count: Int = 1) {
        let count = min(count, Self.maximumCount)
        guard count > 0 else { return }
        state.withLock { $0.queue.append((fault, count)) }
    }

    /// Delays every tokenize response by `seconds`, at most ``maximumLatency`` (0 turns it
    /// off).
    public func setLatency(_ seconds: TimeInterval) {
        state.withLock { $0.latency = seconds.isFinite ? min(max(0, seconds), Self.maximumLatency) : 0 }
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
        state.withLock { state in
            guard let first = state.queue.first else { return (nil, state.latency) }
            if first.remaining > 1 {
                state.queue[0].remaining -= 1
            } else {
                state.queue.removeFirst()
            }
            return (first.fault, state.latency)
        }
    }

    /// The requests the queued faults still apply to, in all.
    var queuedCount: Int { state.withLock { $0.queue.reduce(0) { $0 + $1.remaining } } }
}
