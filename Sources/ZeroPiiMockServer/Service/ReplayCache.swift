import Foundation
import ZeroPiiLocking
import ZeroPiiWire

/// The request ids of v1 envelopes the server has accepted, kept as long as a replay of
/// them could still pass the staleness check (Docs/Protocol.md section 5, steps 3 and 4),
/// in bounded memory.
///
/// A request's time `ts` is bound into its envelope, so a replay carries the same `ts`,
/// and the staleness check refuses it once the server's clock is more than 300 s past
/// `ts`. An id is therefore kept until then, filed under its `ts` second: at most 601
/// seconds are live, and dropping the expired ones is one removal per second.
///
/// Memory is bounded by ``capacity`` ids (16 bytes each as a UUID, about 50 bytes with
/// the set's overhead). When a burst fills it, the ids of the oldest `ts` second are
/// dropped and that second becomes the floor: a request with a `ts` at or below it could
/// be a replay the cache no longer remembers, so it is refused as stale, and a client
/// whose clock lags resends with a corrected time, as it does for any stale answer. At
/// the default million ids the floor stays more than 300 s back below about 3,300
/// accepted requests a second.
final class ReplayCache: Sendable {
    /// How long after its `ts` a request can still pass the staleness check, in seconds.
    static let reach = Int64(ProtocolV1Profile.stalenessWindow)

    /// The most ids kept at once.
    let capacity: Int

    private let state = Locked(State())

    private struct State {
        var ids: Set<UUID> = []
        var idsBySecond: [Int64: [UUID]] = [:]
        /// Requests with a `ts` at or below this are refused: their ids may have been dropped.
        var floor = Int64.min
        var prunedAt = Int64.min
    }

    /// - Parameter capacity: the most ids kept at once (at least 1).
    init(capacity: Int = 1_000_000) {
        self.capacity = max(1, capacity)
    }

    /// How many ids are kept now.
    var count: Int { state.withLock { $0.ids.count } }

    /// Records `requestID`, sent with time `timestamp`, unless it was seen already, in one
    /// step under the lock: of many requests with the same id at once, exactly one is
    /// `claimed`.
    func claim(_ requestID: String, timestamp: Int64, now: Date) -> IncomingWireRequest.Claim {
        // The profile checked the form (a lowercase UUID) before it asks.
        guard let id = UUID(uuidString: requestID) else { return .alreadyUsed }
        let second = Int64(now.timeIntervalSince1970.rounded(.down))
        return state.withLock { state in
            Self.dropExpired(before: second - Self.reach, in: &state)
            guard timestamp > state.floor else { return .beyondMemory }
            guard state.ids.insert(id).inserted else { return .alreadyUsed }
            state.idsBySecond[timestamp, default: []].append(id)
            while state.ids.count > capacity, let oldest = state.idsBySecond.keys.min() {
                Self.drop(second: oldest, in: &state)
                state.floor = max(state.floor, oldest)
            }
            return .claimed
        }
    }

    /// Drops the seconds whose requests the staleness check refuses by now.
    private static func dropExpired(before limit: Int64, in state: inout State) {
        guard limit > state.prunedAt else { return }
        state.prunedAt = limit
        for second in state.idsBySecond.keys where second < limit {
            drop(second: second, in: &state)
        }
    }

    private static func drop(second: Int64, in state: inout State) {
        guard let ids = state.idsBySecond.removeValue(forKey: second) else { return }
        for id in ids { state.ids.remove(id) }
    }
}
