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
/// Failed attempts are counted per client id and per client address in a
/// ``FailureBudget``: ``MockServerConfiguration/failedAuthenticationLimit`` failures in a
/// burst, then one more each `window / limit` seconds (the whole allowance back after
/// ``MockServerConfiguration/failedAuthenticationWindow`` seconds without a failure). A
/// client id or address with no allowance left gets 429 with `Retry-After` until its
/// next attempt, even with the right secret, so guessing runs at that rate at most, while
/// a user who mistyped a secret a few times is never shut out for long. Unknown client
/// ids are counted like known ones: no answer tells them apart.
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
    private let now: @Sendable () -> Date
    private let failures: Locked<FailureBudget>

    init(clients: [String: String], limit: Int, window: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.now = now
        failures = Locked(FailureBudget(limit: limit, window: window))
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
        let current = now().timeIntervalSince1970
        let keys = ["id:" + id, "address:" + address]
        if let wait = failures.withLock({ budget in keys.compactMap { budget.wait(for: $0, at: current) }.max() }) {
            return .limited(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
        }
        let (presented, expected) = comparisonInputs(clientID: id, secret: secret)
        if ConstantTime.equals(presented, expected) && self.expected[id] != nil { return .granted }
        failures.withLock { budget in
            for key in keys { budget.recordFailure(of: key, at: current) }
        }
        return .denied
    }
}
