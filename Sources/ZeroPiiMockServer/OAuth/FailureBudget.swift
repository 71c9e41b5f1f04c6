import Foundation
import ZeroPiiCrypto

/// Failed logins per key (a client id, an address), counted in a table of fixed size, so
/// memory never grows and counting never stops however many keys an attacker invents.
///
/// Each key may fail `limit` times in a burst; its allowance then comes back at
/// `limit / window` attempts a second (all of it after `window` seconds without a
/// failure). A key with no allowance left must wait for the next attempt's worth.
///
/// The table holds `slotCount` counters. A key owns two of them, chosen by two hashes
/// keyed with random values drawn at start (so nobody can aim keys at a counter), and
/// its spending is the smaller of the two: a failure is added to both. Keys that share a
/// counter can only make each other stricter, never freer, and a key is held back by
/// others only when both its counters are spent by them, which a flood of invented keys
/// reaches for a given key with the square of the share of counters it spends. Unknown
/// and known client ids are counted alike, so the answers never tell them apart.
struct FailureBudget {
    private struct Counter {
        var spent: Double = 0
        var updated: TimeInterval = 0
    }

    private var counters: [Counter]
    private let seeds: (UInt64, UInt64)
    private let limit: Double
    private let refillPerSecond: Double

    /// - Parameters:
    ///   - limit: failures allowed in a burst (at least 1).
    ///   - window: seconds in which a spent allowance comes back whole (more than 0).
    ///   - slotCount: counters in the table; 16 bytes each.
    init(limit: Int, window: TimeInterval, slotCount: Int = 1 << 17) {
        self.limit = Double(max(1, limit))
        refillPerSecond = self.limit / max(window, 0.001)
        counters = Array(repeating: Counter(), count: max(2, slotCount))
        let random = SecureRandom.bytes(count: 16)
        seeds = (
            random.prefix(8).reduce(0) { $0 << 8 | UInt64($1) },
            random.suffix(8).reduce(0) { $0 << 8 | UInt64($1) }
        )
    }

    /// Seconds `key` must wait before its next attempt, or nil when it may try now.
    func wait(for key: String, at now: TimeInterval) -> TimeInterval? {
        let spent = slots(of: key).map { spending(of: counters[$0], at: now) }.min() ?? 0
        let excess = spent + 1 - limit
        return excess > 0 ? excess / refillPerSecond : nil
    }

    /// Counts one failed attempt of `key`.
    mutating func recordFailure(of key: String, at now: TimeInterval) {
        for slot in slots(of: key) {
            counters[slot] = Counter(spent: spending(of: counters[slot], at: now) + 1, updated: now)
        }
    }

    /// What `counter` has spent by `now`, after the allowance that came back since.
    private func spending(of counter: Counter, at now: TimeInterval) -> Double {
        max(0, counter.spent - max(0, now - counter.updated) * refillPerSecond)
    }

    private func slots(of key: String) -> [Int] {
        [seeds.0, seeds.1].map { seed in
            var hasher = Hasher()
            hasher.combine(seed)
            hasher.combine(key)
            return Int(UInt(bitPattern: hasher.finalize()) % UInt(counters.count))
        }
    }
}
