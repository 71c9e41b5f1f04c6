import Foundation

/// The pairs of client id and address that logged in recently, so that an attacker who
/// spends a known client id's allowance from other addresses cannot shut out the client
/// itself: a login from a trusted pair is held back only by its address's own failures.
///
/// Bounded: at most ``capacity`` pairs, the oldest login forgotten first, each for
/// ``lifetime`` seconds after its last login.
struct TrustedLogins {
    static let capacity = 10_000
    static let lifetime: TimeInterval = 24 * 3600

    private var lastLogin: [String: TimeInterval] = [:]
    /// Pairs in the order they last logged in, oldest first (with stale entries skipped).
    private var order: [(pair: String, time: TimeInterval)] = []
    private var orderStart = 0

    func isTrusted(clientID: String, address: String, at now: TimeInterval) -> Bool {
        guard let time = lastLogin[Self.pair(clientID, address)] else { return false }
        return now - time < Self.lifetime
    }

    mutating func recordLogin(clientID: String, address: String, at now: TimeInterval) {
        let pair = Self.pair(clientID, address)
        lastLogin[pair] = now
        order.append((pair, now))
        while lastLogin.count > Self.capacity, orderStart < order.count {
            let oldest = order[orderStart]
            orderStart += 1
            // Only the pair's latest login counts; older entries of it are skipped.
            if lastLogin[oldest.pair] == oldest.time { lastLogin[oldest.pair] = nil }
        }
        if orderStart > Self.capacity {
            order.removeFirst(orderStart)
            orderStart = 0
        }
        if order.count - orderStart > 4 * Self.capacity {
            // Repeated logins of the same pairs: keep each pair's latest entry only.
            order = order[orderStart...].filter { lastLogin[$0.pair] == $0.time }
            orderStart = 0
        }
    }

    private static func pair(_ clientID: String, _ address: String) -> String {
        // An address has no NUL byte, so the pair cannot be read another way.
        address + "\u{0}" + clientID
    }
}
