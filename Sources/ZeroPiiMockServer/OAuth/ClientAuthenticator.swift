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
/// Failed attempts are counted per client id and per client address, each in a
/// ``FailureBudget`` of its own: ``MockServerConfiguration/failedAuthenticationLimit``
/// failures in a burst, then one more each `window / limit` seconds (the whole allowance
/// back after ``MockServerConfiguration/failedAuthenticationWindow`` seconds without a
/// failure). A client id or address with no allowance left gets 429 with `Retry-After`
/// until its next attempt, even with the right secret, so guessing runs at that rate at
/// most, while a user who mistyped a secret a few times is never shut out for long.
/// Unknown client ids are counted like known ones: no answer tells them apart. A client
/// that logged in from an address recently (``TrustedLogins``) is held back there only by
/// that address's own failures, so failures made for its id elsewhere do not shut it out.
final class ClientAuthenticator: Sendable {
    enum Outcome: Equatable {
        case granted
        case denied
        case limited(retryAfterSeconds: Int)
    }

    private let secrets = SecretDigest()
    private let expected: [String: [UInt8]]
    /// Compared against when the client id is unknown, so that case takes the same path.
    private let unknownClient: [UInt8]
    private let now: @Sendable () -> Date
    private struct Records {
        var byClientID: FailureBudget
        var byAddress: FailureBudget
        var trusted = TrustedLogins()
    }
    private let records: Locked<Records>

    init(clients: [String: String], limit: Int, window: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.now = now
        let origin = now().timeIntervalSince1970 - 1
        records = Locked(
            Records(
                byClientID: FailureBudget(limit: limit, window: window, origin: origin),
                byAddress: FailureBudget(limit: limit, window: window, origin: origin)))
        expected = clients.mapValues(secrets.digest)
        unknownClient = Array(SecureRandom.bytes(count: 32))
    }

    /// The two byte strings compared for `secret` presented as client `id`: the MAC of
    /// the secret sent and the MAC of the one expected. Always 32 bytes each.
    func comparisonInputs(clientID id: String, secret: String) -> (presented: [UInt8], expected: [UInt8]) {
        (secrets.digest(secret), expected[id] ?? unknownClient)
    }

    func authenticate(clientID id: String, secret: String, address: String) -> Outcome {
        let current = now().timeIntervalSince1970
        let wait: TimeInterval? = records.withLock { records in
            let byAddress = records.byAddress.wait(for: address, at: current)
            guard !records.trusted.isTrusted(clientID: id, address: address, at: current) else { return byAddress }
            return [byAddress, records.byClientID.wait(for: id, at: current)].compactMap { $0 }.max()
        }
        if let wait { return .limited(retryAfterSeconds: max(1, Int(wait.rounded(.up)))) }
        let (presented, expected) = comparisonInputs(clientID: id, secret: secret)
        if ConstantTime.equals(presented, expected) && self.expected[id] != nil {
            records.withLock { $0.trusted.recordLogin(clientID: id, address: address, at: current) }
            return .granted
        }
        records.withLock { records in
            records.byClientID.recordFailure(of: id, at: current)
            records.byAddress.recordFailure(of: address, at: current)
        }
        return .denied
    }
}
