import Foundation
import ZeroPiiCrypto
import ZeroPiiLocking

/// Checks client credentials for `POST oauth/token`, and slows down guessing.
///
/// Secrets are never compared directly: each is reduced to an HMAC-SHA256 under a key
/// drawn when the server starts, and the two 32-byte MACs are compared in constant
/// time. So the comparison takes the same path whatever the length of the secret sent
/// or expected, and an unknown client id is compared against a MAC too.
///
/// Failed attempts are counted per client id and per client address; after
/// ``MockServerConfiguration/failedAuthenticationLimit`` failures within
/// ``MockServerConfiguration/failedAuthenticationWindow`` seconds, that id or address
/// gets 429 with `Retry-After` until the window has passed, even with the right secret.
final class ClientAuthenticator: Sendable {
    enum Outcome: Equatable {
        case granted
        case denied
        case limited(retryAfterSeconds: Int)
    }

    private let signer: HMAC<SHA256>
    private let expected: [String: [UInt8]]
    /// Compared against when the client id is unknown, so that case takes the same path.
    private let unknownClient: [UInt8]
    private let limit: Int
    private let window: TimeInterval
    private let now: @Sendable () -> Date
    /// Failures by key (`id:` + client id, `address:` + address) since the window began.
    private typealias FailureTable = [String: (count: Int, windowStart: Date)]
    private let failures = Locked<FailureTable>([:])
    private static let maximumTrackedKeys = 10_000

    init(clients: [String: String], limit: Int, window: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.limit = limit
        self.window = window
        self.now = now
        let signer = HMAC<SHA256>(key: SymmetricKey(size: .bits256))
        self.signer = signer
        expected = clients.mapValues { secret in
            var mac = signer
            mac.update(data: Array(secret.utf8))
            return Array(mac.finalize())
        }
        unknownClient = Array(SecureRandom.bytes(count: 32))
    }

    /// The two byte strings compared for `secret` presented as client `id`: the MAC of
    /// the secret sent and the MAC of the one expected. Always 32 bytes each.
    func comparisonInputs(clientID id: String, secret: String) -> (presented: [UInt8], expected: [UInt8]) {
        var mac = signer
        mac.update(data: Array(secret.utf8))
        return (Array(mac.finalize()), expected[id] ?? unknownClient)
    }

    func authenticate(clientID id: String, secret: String, address: String) -> Outcome {
        let current = now()
        let keys = ["id:" + id, "address:" + address]
        if let retryAfter = failures.withLock({ table in keys.compactMap { retryAfter(for: $0, at: current, in: &table) }.max() }) {
            return .limited(retryAfterSeconds: retryAfter)
        }
        let (presented, expected) = comparisonInputs(clientID: id, secret: secret)
        if ConstantTime.equals(presented, expected) && self.expected[id] != nil { return .granted }
        failures.withLock { table in
            // Unknown ids are not tracked one by one (they would let anyone fill the
            // table); their failures count against the address.
            for key in keys where key.hasPrefix("address:") || self.expected[id] != nil {
                recordFailure(for: key, at: current, in: &table)
            }
        }
        return .denied
    }

    /// Seconds until `key` may try again, or nil when it may now. `table` is the value of
    /// ``failures``, inside its lock.
    private func retryAfter(for key: String, at current: Date, in table: inout FailureTable) -> Int? {
        guard let entry = table[key] else { return nil }
        let remaining = entry.windowStart.addingTimeInterval(window).timeIntervalSince(current)
        guard remaining > 0 else {
            table[key] = nil
            return nil
        }
        return entry.count >= limit ? Int(remaining.rounded(.up)) : nil
    }

    /// `table` is the value of ``failures``, inside its lock.
    private func recordFailure(for key: String, at current: Date, in table: inout FailureTable) {
        if var entry = table[key], current.timeIntervalSince(entry.windowStart) < window {
            entry.count += 1
            table[key] = entry
            return
        }
        if table.count >= Self.maximumTrackedKeys {
            table = table.filter { current.timeIntervalSince($0.value.windowStart) < window }
            guard table.count < Self.maximumTrackedKeys else { return }
        }
        table[key] = (1, current)
    }
}
