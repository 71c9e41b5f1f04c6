import Foundation
import ZeroPiiCrypto

/// Checks the bearer token of an admin request against the server's admin token.
///
/// As with client secrets (``ClientAuthenticator``), the token is never compared
/// directly: both sides are reduced to an HMAC-SHA256 under a key drawn at start-up and
/// the two 32-byte MACs are compared in constant time, so neither the token's length nor
/// a matching prefix shows in the time taken.
struct AdminTokenCheck: Sendable {
    private let signer: HMAC<SHA256>
    private let expected: [UInt8]

    init(token: String) {
        signer = HMAC<SHA256>(key: SymmetricKey(size: .bits256))
        expected = Self.mac(token, with: signer)
    }

    /// Whether `authorization` (the request's `Authorization` header) carries the token.
    func accepts(authorization: String?) -> Bool {
        // The scheme is case-insensitive (RFC 9110, section 11.1).
        guard let authorization, authorization.prefix(7).lowercased() == "bearer " else { return false }
        let presented = Self.mac(String(authorization.dropFirst(7)), with: signer)
        return ConstantTime.equals(presented, expected)
    }

    private static func mac(_ text: String, with signer: HMAC<SHA256>) -> [UInt8] {
        var mac = signer
        mac.update(data: Array(text.utf8))
        return Array(mac.finalize())
    }
}
