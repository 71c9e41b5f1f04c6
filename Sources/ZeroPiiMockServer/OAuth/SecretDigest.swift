import Foundation
import ZeroPiiCrypto

/// Secrets reduced to HMAC-SHA256 values under a key drawn when the server starts, so
/// that a presented secret is compared with an expected one as two 32-byte values in
/// constant time: neither a secret's length nor a matching prefix shows in the time taken.
/// Client secrets (``ClientAuthenticator``) and the admin token (``AdminTokenCheck``)
/// are compared this way.
struct SecretDigest: Sendable {
    private let signer = HMAC<SHA256>(key: SymmetricKey(size: .bits256))

    /// The 32-byte digest of `secret`.
    func digest(_ secret: String) -> [UInt8] {
        var mac = signer
        mac.update(data: Array(secret.utf8))
        return Array(mac.finalize())
    }
}
