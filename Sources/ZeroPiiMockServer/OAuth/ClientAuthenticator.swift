import Foundation
import ZeroPiiCrypto

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
final class ClientAuthenticator: @unchecked Sendable {
    // Sendable: `failures` is guarded by `lock`; the rest is immutable.
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
    private let lock = NSLock()
    /// Failures by key (`id:` + client id, `address:` + address) since the window began.
    private var failures: [String: (count: Int, windowStart: Date)] = [:]
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
        if let retryAfter = lock.withLock({ keys.compactMap { retryAfter(for: $0, at: current) }.max() }) {
            return .limited(retryAfterSeconds: retryAfter)
        }
        let (presented, expected) = comparisonInputs(clientID: id, secret: secret)
        if ConstantTime.equals(presented, expected) && self.expected[id] != nil { return .granted }
        lock.withLock {
            // Unknown ids are not tracked one by one (they would let anyone fill the
            // table); their failures count against the address.
            for key in keys where key.hasPrefix("address:") || self.expected[id] != nil {
                recordFailure(for: key, at: current)
            }
        }
        return .denied
    }

    /// Seconds until `key` may try again, or nil when it may now. Called under `lock`.
    private func retryAfter(for key: String, at current: Date) -> Int? {
        guard let entry = failures[key] else { return nil }
        let remaining = entry.windowStart.addingTimeInterval(window).timeIntervalSince(current)
        guard remaining > 0 else {
            failures[key] = nil
            return nil
        }
        return entry.count >= limit ? Int(remaining.rounded(.up)) : nil
    }

    /// Called under `lock`.
    private func recordFailure(for key: String, at current: Date) {
        if var entry = failures[key], current.timeIntervalSince(entry.windowStart) < window {
            entry.count += 1
            failures[key] = entry
            return
        }
        if failures.count >= Self.maximumTrackedKeys {
            failures = failures.filter { current.timeIntervalSince($0.value.windowStart) < window }
            guard failures.count < Self.maximumTrackedKeys else { return }
        }
        failures[key] = (1, current)
    }
}
