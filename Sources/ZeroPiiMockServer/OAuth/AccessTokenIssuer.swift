import Foundation
import ZeroPiiCrypto
import ZeroPiiLocking

/// Issues and verifies the mock server's opaque bearer tokens (Docs/Protocol.md, section 8).
///
/// A token is `zpt_` + Base64URL(issued-at, expiry, 8 random bytes) + `.` +
/// Base64URL(the first 16 bytes of an HMAC-SHA256 over that part), so the server can
/// verify it without storing it. "Expire all tokens now" moves a cut-off: tokens issued
/// before it stop working.
final class AccessTokenIssuer: Sendable {
    private let signer: HMAC<SHA256>
    private let lifetime: TimeInterval
    private let revokedBefore = Locked<UInt64>(0)
    private let now: @Sendable () -> Date

    init(lifetime: TimeInterval, now: @escaping @Sendable () -> Date) {
        signer = HMAC<SHA256>(key: SymmetricKey(size: .bits256))
        self.lifetime = lifetime
        self.now = now
    }

    var lifetimeSeconds: Int { Int(lifetime) }

    func issue() -> String {
        // Never before the cut-off: a token issued in the millisecond of a revocation,
        // after it, must work (a client that replays at once after a 401 gets one).
        let issued = max(UInt64(now().timeIntervalSince1970 * 1000), revokedBefore.withLock { $0 })
        let expiry = issued + UInt64(lifetime * 1000)
        var payload = [UInt8]()
        withUnsafeBytes(of: issued.bigEndian) { payload.append(contentsOf: $0) }
        withUnsafeBytes(of: expiry.bigEndian) { payload.append(contentsOf: $0) }
        payload.append(contentsOf: SecureRandom.bytes(count: 8))
        return "zpt_" + Self.base64URL(payload) + "." + Self.base64URL(mac(payload))
    }

    /// Whether `token` was issued here, is unexpired and was not revoked.
    func isValid(_ token: String) -> Bool {
        guard token.hasPrefix("zpt_") else { return false }
        let parts = token.dropFirst(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Self.decodeBase64URL(String(parts[0])), payload.count == 24,
            let tag = Self.decodeBase64URL(String(parts[1])),
            ConstantTime.equals(tag, mac(payload))
        else { return false }
        let issued = payload[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let expiry = payload[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let current = UInt64(now().timeIntervalSince1970 * 1000)
        return current < expiry && issued >= revokedBefore.withLock { $0 }
    }

    /// Invalidates every token issued until now.
    func revokeAll() {
        let current = UInt64(now().timeIntervalSince1970 * 1000) + 1
        revokedBefore.withLock { $0 = current }
    }

    private func mac(_ payload: [UInt8]) -> [UInt8] {
        var hmac = signer
        hmac.update(data: payload)
        return Array([UInt8](hmac.finalize()).prefix(16))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Strict: a token spelled any other way than ``base64URL(_:)`` writes it is not one of ours.
    static func decodeBase64URL(_ text: String) -> [UInt8]? {
        StrictBase64.decodeURL(text)
    }
}
