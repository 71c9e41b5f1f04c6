import Foundation
import ZeroPiiCrypto

/// Checks the bearer token of an admin request against the server's admin token, as
/// digests compared in constant time (``SecretDigest``, as for client secrets).
struct AdminTokenCheck: Sendable {
    private let secrets = SecretDigest()
    private let expected: [UInt8]

    init(token: String) {
        expected = secrets.digest(token)
    }

    /// Whether `authorization` (the request's `Authorization` header) carries the token.
    func accepts(authorization: String?) -> Bool {
        // The scheme is case-insensitive (RFC 9110, section 11.1).
        guard let authorization, authorization.prefix(7).lowercased() == "bearer " else { return false }
        return ConstantTime.equals(secrets.digest(String(authorization.dropFirst(7))), expected)
    }
}
