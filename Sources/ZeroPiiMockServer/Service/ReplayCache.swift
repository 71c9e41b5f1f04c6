import Foundation

/// Request ids seen in the last 10 minutes (Docs/Protocol.md section 5, step 4).
final class ReplayCache: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    static let window: TimeInterval = 600

    private let lock = NSLock()
    private var seen: [String: Date] = [:]
    private var insertionsSincePrune = 0

    /// Records `requestID` unless it was seen within the window, in one step under the
    /// lock: of many requests with the same id at once, exactly one gets true.
    func insertIfAbsent(_ requestID: String, now: Date) -> Bool {
        lock.withLock {
            if let expiry = seen[requestID], expiry > now { return false }
            seen[requestID] = now.addingTimeInterval(Self.window)
            insertionsSincePrune += 1
            if insertionsSincePrune >= 10_000 {
                seen = seen.filter { $0.value > now }
                insertionsSincePrune = 0
            }
            return true
        }
    }
}
