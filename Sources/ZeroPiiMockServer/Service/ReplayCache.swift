import Foundation
import ZeroPiiLocking

/// Request ids seen in the last 10 minutes (Docs/Protocol.md section 5, step 4).
final class ReplayCache: Sendable {
    static let window: TimeInterval = 600

    private let state = Locked(State())

    private struct State {
        var seen: [String: Date] = [:]
        var insertionsSincePrune = 0
    }

    /// Records `requestID` unless it was seen within the window, in one step under the
    /// lock: of many requests with the same id at once, exactly one gets true.
    func insertIfAbsent(_ requestID: String, now: Date) -> Bool {
        state.withLock { state in
            if let expiry = state.seen[requestID], expiry > now { return false }
            state.seen[requestID] = now.addingTimeInterval(Self.window)
            state.insertionsSincePrune += 1
            if state.insertionsSincePrune >= 10_000 {
                state.seen = state.seen.filter { $0.value > now }
                state.insertionsSincePrune = 0
            }
            return true
        }
    }
}
