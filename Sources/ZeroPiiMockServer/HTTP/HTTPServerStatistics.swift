import Foundation
import ZeroPiiLocking

/// What the HTTP layer of the mock server has had to defend against, and the request
/// memory budget it keeps (see ``HTTPServerLimits/requestMemoryBudget``).
public final class HTTPServerStatistics: Sendable {
    private struct State {
        var acceptErrorCount = 0
        var requestTimeoutCount = 0
        var writeTimeoutCount = 0
        var budgetRejectionCount = 0
        var closedConnectionCount = 0
        var refusedConnectionCount = 0
        var admittedConnectionCount = 0
        var peakOpenConnectionCount = 0
        var bufferedBytes = 0
        var peakBufferedBytes = 0
        var threadCPUTime: TimeInterval = 0
    }

    private let state = Locked(State())

    /// Creates empty counters.
    public init() {}

    /// Failed `accept` calls the server backed off from and survived (ENOBUFS, EMFILE, ...).
    public var acceptErrors: Int { state.withLock { $0.acceptErrorCount } }
    /// Connections cut off because a request did not arrive within the request timeout.
    public var requestTimeouts: Int { state.withLock { $0.requestTimeoutCount } }
    /// Connections closed because a response could not be written within the write timeout.
    public var writeTimeouts: Int { state.withLock { $0.writeTimeoutCount } }
    /// Requests answered 503 because their body did not fit in the memory budget.
    public var memoryBudgetRejections: Int { state.withLock { $0.budgetRejectionCount } }
    /// Connections whose serving thread has finished.
    public var closedConnections: Int { state.withLock { $0.closedConnectionCount } }
    /// Body bytes currently charged to the memory budget.
    public var bufferedRequestBytes: Int { state.withLock { $0.bufferedBytes } }
    /// The most body bytes ever charged to the memory budget at once.
    public var peakBufferedRequestBytes: Int { state.withLock { $0.peakBufferedBytes } }
    /// CPU time spent by the threads of connections that have finished, in seconds.
    public var connectionCPUSeconds: TimeInterval { state.withLock { $0.threadCPUTime } }

    /// Connections admitted and served since the server started.
    public var admittedConnections: Int { state.withLock { $0.admittedConnectionCount } }
    /// The most connections that were open at once.
    public var peakOpenConnections: Int { state.withLock { $0.peakOpenConnectionCount } }

    /// Connections answered 503 at once because every slot they could take was busy.
    public var refusedConnections: Int { state.withLock { $0.refusedConnectionCount } }

    func recordAcceptError() { state.withLock { $0.acceptErrorCount += 1 } }
    func recordAdmittedConnection(open: Int) {
        state.withLock { state in
            state.admittedConnectionCount += 1
            state.peakOpenConnectionCount = max(state.peakOpenConnectionCount, open)
        }
    }

    func recordRefusedConnection() { state.withLock { $0.refusedConnectionCount += 1 } }
    func recordRequestTimeout() { state.withLock { $0.requestTimeoutCount += 1 } }
    func recordWriteTimeout() { state.withLock { $0.writeTimeoutCount += 1 } }

    func recordClosedConnection(cpuSeconds: TimeInterval) {
        state.withLock { state in
            state.closedConnectionCount += 1
            state.threadCPUTime += cpuSeconds
        }
    }

    /// Charges `bytes` to the budget if they fit under `limit`; false (and a rejection
    /// counted) when they do not.
    func reserve(_ bytes: Int, limit: Int) -> Bool {
        state.withLock { state in
            guard bytes <= limit - state.bufferedBytes else {
                state.budgetRejectionCount += 1
                return false
            }
            state.bufferedBytes += bytes
            state.peakBufferedBytes = max(state.peakBufferedBytes, state.bufferedBytes)
            return true
        }
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        state.withLock { $0.bufferedBytes -= bytes }
    }
}
