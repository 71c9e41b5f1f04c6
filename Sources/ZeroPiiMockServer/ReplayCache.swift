import Foundation

/// Request ids seen in the last 10 minutes (PROTOCOL.md section 5, step 4).
final class ReplayCache: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    static let window: TimeInterval = 600

    private let lock = NSLock()
    private var seen: [String: Date] = [:]
    private var insertionsSincePrune = 0

    func contains(_ requestID: String, now: Date) -> Bool {
        lock.withLock {
            guard let expiry = seen[requestID] else { return false }
            return expiry > now
        }
    }

    func insert(_ requestID: String, now: Date) {
        lock.withLock {
            seen[requestID] = now.addingTimeInterval(Self.window)
            insertionsSincePrune += 1
            if insertionsSincePrune >= 10_000 {
                seen = seen.filter { $0.value > now }
                insertionsSincePrune = 0
            }
        }
    }
}
