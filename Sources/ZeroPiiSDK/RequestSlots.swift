import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// The bound on one client's HTTP requests in flight
/// (``ZeroPiiConfiguration/maximumConcurrentRequests``): at most `limit` transport
/// sends at once; the others wait in the order they came.
///
/// A freed slot passes straight to the first waiter, so a newcomer never overtakes the
/// queue. A waiter whose task is cancelled (its call's time limit passed, or its caller
/// gave up) leaves at once with `CancellationError` and takes no slot; its place in the
/// queue is skipped when its turn comes, so leaving costs nothing however long the
/// queue is.
final class RequestSlots: Sendable {
    private enum Waiter {
        /// Queued; its task has not suspended yet.
        case queued
        case waiting(CheckedContinuation<Void, any Error>)
        /// Handed a slot before it suspended: it goes on without waiting.
        case granted
        /// Cancelled before it suspended: it leaves without waiting.
        case cancelled
    }

    private struct State {
        var free: Int
        /// Waiters' numbers in order of arrival; `queue[head...]` are still in line.
        var queue: [UInt64] = []
        var head = 0
        var waiters: [UInt64: Waiter] = [:]
        var lastNumber: UInt64 = 0

        /// The first waiter still in line, taken off the queue.
        mutating func nextInLine() -> UInt64? {
            while head < queue.count {
                let number = queue[head]
                head += 1
                if head > 1024 && head * 2 > queue.count {
                    queue.removeFirst(head)
                    head = 0
                }
                if waiters[number] != nil { return number }
            }
            return nil
        }
    }

    let limit: Int
    private let state: Locked<State>

    /// - Parameter limit: requests in flight at most; less than 1 counts as 1.
    init(limit: Int) {
        self.limit = max(1, limit)
        state = Locked(State(free: self.limit))
    }

    /// Runs `send` in a slot, waiting for one first if all are taken.
    func withSlot<Result>(_ send: () async throws -> Result) async throws -> Result {
        try await acquire()
        defer { release() }
        return try await send()
    }

    /// Takes a free slot without waiting; false when all are taken (the caller then
    /// waits in line through ``withSlot(_:)``). A taken slot is given back by ``release()``.
    func takeFreeSlot() -> Bool {
        state.withLock { state in
            guard state.free > 0 else { return false }
            state.free -= 1
            return true
        }
    }

    private func acquire() async throws {
        let number: UInt64? = state.withLock { state in
            if state.free > 0 {
                state.free -= 1
                return nil
            }
            state.lastNumber += 1
            state.queue.append(state.lastNumber)
            state.waiters[state.lastNumber] = .queued
            return state.lastNumber
        }
        guard let number else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let goesOn: Bool? = state.withLock { state in
                    switch state.waiters[number] {
                    case .queued:
                        state.waiters[number] = .waiting(continuation)
                        return nil
                    case .granted:
                        state.waiters[number] = nil
                        return true
                    case .cancelled, .waiting, nil:
                        state.waiters[number] = nil
                        return false
                    }
                }
                switch goesOn {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let waiting: CheckedContinuation<Void, any Error>? = state.withLock { state in
                switch state.waiters[number] {
                case .queued:
                    state.waiters[number] = .cancelled
                    return nil
                case .waiting(let continuation):
                    state.waiters[number] = nil
                    return continuation
                case .granted, .cancelled, nil:
                    // Granted: the slot is this task's, and its send sees the cancellation.
                    return nil
                }
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// Gives a slot back: to the first waiter in line, or to the free ones.
    func release() {
        let next: CheckedContinuation<Void, any Error>? = state.withLock { state in
            while let number = state.nextInLine() {
                switch state.waiters[number] {
                case .queued:
                    state.waiters[number] = .granted
                    return nil
                case .waiting(let continuation):
                    state.waiters[number] = nil
                    return continuation
                case .cancelled:
                    state.waiters[number] = nil
                case .granted, nil:
                    break
                }
            }
            state.free += 1
            return nil
        }
        next?.resume()
    }

    /// Requests in flight now, and waiters in line (cancelled ones not yet skipped
    /// included), for tests.
    var snapshot: (inFlight: Int, waiting: Int) {
        state.withLock { state in (limit - state.free, state.queue.count - state.head) }
    }
}
