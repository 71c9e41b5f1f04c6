import Foundation

/// The open connections of an ``HTTPServer``, by peer address, and which of them may
/// give way to a new one.
///
/// Slots are shared so that no address can starve the others: an address holds at most
/// ``HTTPServerLimits/maximumConnectionsPerAddress`` connections, and a server at
/// ``HTTPServerLimits/maximumConnections`` makes room by closing an idle connection
/// (one waiting for a request, not a byte of it received) of the address, or one of the
/// addresses, that hold the most, the longest idle first; an address holding fewer never
/// gives way. An address at its own limit makes room among its own idle connections.
/// When no such connection is idle the new one is refused, so a client that opens
/// connections and sends nothing loses its oldest ones rather than locking everyone else
/// out, and busy connections never push out a smaller client's.
///
/// A value kept inside the server's lock; it never touches a socket itself.
struct ConnectionTable {
    private struct Entry {
        let address: String
        /// When the connection began waiting for a request; nil while one is arriving
        /// or being answered.
        var idleSince: Date?
    }

    private var entries: [Int32: Entry] = [:]
    private var countByAddress: [String: Int] = [:]

    /// What to do with a new connection.
    enum Admission: Equatable {
        /// Serve it, after closing `shedding` (an idle connection) when that is not nil.
        case admitted(shedding: Int32?)
        /// Answer 503 and close it: every connection that could give way is busy.
        case refused
    }

    var count: Int { entries.count }

    /// How many connections wait for a request.
    var idleCount: Int { entries.values.filter { $0.idleSince != nil }.count }

    var descriptors: [Int32] { Array(entries.keys) }

    /// How many connections `address` holds.
    func count(from address: String) -> Int { countByAddress[address] ?? 0 }

    /// Decides whether `descriptor` from `address` may be served under `limits`, and
    /// records it (idle, since it has sent nothing yet) when it may. A connection named
    /// for shedding is removed from the table at once; its owner closes it.
    mutating func admit(_ descriptor: Int32, from address: String, limits: HTTPServerLimits, now: Date) -> Admission {
        var shed: Int32?
        if count(from: address) >= limits.maximumConnectionsPerAddress {
            guard let own = longestIdle(where: { $0.address == address }) else { return .refused }
            shed = own
        } else if entries.count >= limits.maximumConnections {
            // Only the addresses that hold the most may give way, never a smaller one: a
            // client with one idle keep-alive connection keeps it while others are busy.
            guard let most = countByAddress.values.max(),
                let victim = longestIdle(where: { count(from: $0.address) == most })
            else { return .refused }
            shed = victim
        }
        if let shed { remove(shed) }
        entries[descriptor] = Entry(address: address, idleSince: now)
        countByAddress[address, default: 0] += 1
        return .admitted(shedding: shed)
    }

    /// Marks `descriptor` as waiting for a request (`idle`) or busy with one. False when
    /// it is no longer in the table (it was shed): its thread should stop.
    @discardableResult
    mutating func mark(_ descriptor: Int32, idle: Bool, now: Date) -> Bool {
        guard entries[descriptor] != nil else { return false }
        entries[descriptor]?.idleSince = idle ? now : nil
        return true
    }

    /// Forgets `descriptor`; nothing happens if it was shed already.
    mutating func remove(_ descriptor: Int32) {
        guard let entry = entries.removeValue(forKey: descriptor) else { return }
        let remaining = count(from: entry.address) - 1
        countByAddress[entry.address] = remaining > 0 ? remaining : nil
    }

    private func longestIdle(where matches: (Entry) -> Bool) -> Int32? {
        var best: (descriptor: Int32, since: Date)?
        for (descriptor, entry) in entries where matches(entry) {
            guard let since = entry.idleSince else { continue }
            if let current = best, current.since <= since { continue }
            best = (descriptor, since)
        }
        return best?.descriptor
    }
}
