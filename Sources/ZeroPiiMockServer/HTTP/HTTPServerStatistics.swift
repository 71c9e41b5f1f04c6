import Foundation

/// What the HTTP layer of the mock server has had to defend against, and the request
/// memory budget it keeps (see ``HTTPServerLimits/requestMemoryBudget``).
public final class HTTPServerStatistics: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var acceptErrorCount = 0
    private var requestTimeoutCount = 0
    private var writeTimeoutCount = 0
    private var budgetRejectionCount = 0
    private var closedConnectionCount = 0
    private var bufferedBytes = 0
    private var peakBufferedBytes = 0
    private var threadCPUTime: TimeInterval = 0

    /// Creates empty counters.
    public init() {}

    /// Failed `accept` calls the server backed off from and survived (ENOBUFS, EMFILE, ...).
    public var acceptErrors: Int { lock.withLock { acceptErrorCount } }
    /// Connections cut off because a request did not arrive within the request timeout.
    public var requestTimeouts: Int { lock.withLock { requestTimeoutCount } }
    /// Connections closed because a response could not be written within the write timeout.
    public var writeTimeouts: Int { lock.withLock { writeTimeoutCount } }
    /// Requests answered 503 because their body did not fit in the memory budget.
    public var memoryBudgetRejections: Int { lock.withLock { budgetRejectionCount } }
    /// Connections whose serving thread has finished.
    public var closedConnections: Int { lock.withLock { closedConnectionCount } }
    /// Body bytes currently charged to the memory budget.
    public var bufferedRequestBytes: Int { lock.withLock { bufferedBytes } }
    /// The most body bytes ever charged to the memory budget at once.
    public var peakBufferedRequestBytes: Int { lock.withLock { peakBufferedBytes } }
    /// CPU time spent by the threads of connections that have finished, in seconds.
    public var connectionCPUSeconds: TimeInterval { lock.withLock { threadCPUTime } }

    func recordAcceptError() { lock.withLock { acceptErrorCount += 1 } }
    func recordRequestTimeout() { lock.withLock { requestTimeoutCount += 1 } }
    func recordWriteTimeout() { lock.withLock { writeTimeoutCount += 1 } }

    func recordClosedConnection(cpuSeconds: TimeInterval) {
        lock.withLock {
            closedConnectionCount += 1
            threadCPUTime += cpuSeconds
        }
    }

    /// Charges `bytes` to the budget if they fit under `limit`; false (and a rejection
    /// counted) when they do not.
    func reserve(_ bytes: Int, limit: Int) -> Bool {
        lock.withLock {
            guard bytes <= limit - bufferedBytes else {
                budgetRejectionCount += 1
                return false
            }
            bufferedBytes += bytes
            peakBufferedBytes = max(peakBufferedBytes, bufferedBytes)
            return true
        }
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        lock.withLock { bufferedBytes -= bytes }
    }
}
