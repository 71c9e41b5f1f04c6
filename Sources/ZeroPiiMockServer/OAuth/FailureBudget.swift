import Foundation
import ZeroPiiCrypto

/// Failed logins per key (a client id, or an address), counted in a table of fixed size,
/// so memory never grows and counting never stops however many keys an attacker invents.
///
/// Each key may fail `limit` times in a burst; its allowance then comes back at
/// `limit / window` attempts a second (all of it after `window` seconds without a
/// failure). A key with no allowance left must wait for the next attempt's worth.
///
/// The table holds `slotCount` counters of 8 bytes. A key owns three of them, chosen by
/// three hashes keyed with random values drawn at start (so nobody can aim keys at a
/// counter), and its spending is the smallest of the three; a failure is added to all
/// three. Keys that share a counter can only make each other stricter, never freer, and
/// a key is held back by others only when all three of its counters are spent by them:
/// with a share `s` of the counters spent, a fresh key is held back with chance `s³`
/// (an attacker keeping 20,000 addresses spent holds 60,000 of 524,288 counters, and a
/// fresh address is held back about one time in 670). The client ids and the addresses have a table each,
/// so a flood of addresses does not spend the ids' counters, nor the reverse.
struct FailureBudget {
    private struct Counter {
        /// Attempts spent, as of `updated`.
        var spent: Float = 0
        /// Seconds since `origin` of the last failure counted.
        var updated: Float = 0
    }

    /// Empty until the first failure, so a server nobody fails to log in to holds none.
    private var counters: [Counter] = []
    private let slotCount: Int
    private let seeds: [UInt64]
    private let limit: Double
    private let refillPerSecond: Double
    /// Counter times are kept as seconds since this, so that a `Float` holds them.
    private let origin: TimeInterval

    /// The counters of each table.
    static let defaultSlotCount = 1 << 19

    /// - Parameters:
    ///   - limit: failures allowed in a burst (at least 1).
    ///   - window: seconds in which a spent allowance comes back whole (more than 0).
    ///   - origin: a time before every time this budget will see (start-up).
    ///   - slotCount: counters in the table.
    init(limit: Int, window: TimeInterval, origin: TimeInterval, slotCount: Int = defaultSlotCount) {
        self.limit = Double(max(1, limit))
        refillPerSecond = self.limit / max(window, 0.001)
        self.origin = origin
        self.slotCount = max(3, slotCount)
        let random = Array(SecureRandom.bytes(count: 24))
        seeds = (0..<3).map { index in random[(index * 8)..<(index * 8 + 8)].reduce(0) { $0 << 8 | UInt64($1) } }
    }

    /// Seconds `key` must wait before its next attempt, or nil when it may try now.
    func wait(for key: String, at now: TimeInterval) -> TimeInterval? {
        guard !counters.isEmpty else { return nil }
        let spent = slots(of: key).map { spending(of: counters[$0], at: now) }.min() ?? 0
        let excess = spent + 1 - limit
        return excess > 0 ? excess / refillPerSecond : nil
    }

    /// Counts one failed attempt of `key`.
    mutating func recordFailure(of key: String, at now: TimeInterval) {
        if counters.isEmpty { counters = Array(repeating: Counter(), count: slotCount) }
        for slot in slots(of: key) {
            let spent = spending(of: counters[slot], at: now) + 1
            counters[slot] = Counter(spent: Float(spent), updated: Float(now - origin))
        }
    }

    /// What `counter` has spent by `now`, after the allowance that came back since.
    private func spending(of counter: Counter, at now: TimeInterval) -> Double {
        let elapsed = max(0, now - origin - Double(counter.updated))
        return max(0, Double(counter.spent) - elapsed * refillPerSecond)
    }

    private func slots(of key: String) -> [Int] {
        seeds.map { seed in
            var hasher = Hasher()
            hasher.combine(seed)
            hasher.combine(key)
            return Int(UInt(bitPattern: hasher.finalize()) % UInt(slotCount))
        }
    }
}
