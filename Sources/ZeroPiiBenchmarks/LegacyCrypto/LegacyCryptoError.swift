/// An error thrown by the cryptographic primitives in ``ZeroPiiCrypto``.
///
/// The type is a struct with static values rather than an enum so that new
/// failure kinds can be added without breaking code that switches over it.
/// Descriptions name the failure only; they never contain key material,
/// plaintext or ciphertext.
struct LegacyCryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case incorrectKeySize
        case incorrectParameterSize
        case authenticationFailure
        case outputSizeTooLarge
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The key is not a size the algorithm accepts (LegacyAES takes 128, 192 or 256 bits).
    static let incorrectKeySize = LegacyCryptoError(.incorrectKeySize)

    /// A nonce, tag, combined box or message has a length the algorithm does not accept.
    static let incorrectParameterSize = LegacyCryptoError(.incorrectParameterSize)

    /// The authentication tag did not match: the data, the associated data,
    /// the nonce or the key is not the one that was sealed.
    static let authenticationFailure = LegacyCryptoError(.authenticationFailure)

    /// A key derivation was asked for more output than the construction can produce
    /// (LegacyHKDF: at most 255 times the digest size).
    static let outputSizeTooLarge = LegacyCryptoError(.outputSizeTooLarge)

    var description: String {
        switch code {
        case .incorrectKeySize: return "LegacyCryptoError: incorrect key size"
        case .incorrectParameterSize: return "LegacyCryptoError: incorrect parameter size"
        case .authenticationFailure: return "LegacyCryptoError: authentication failure"
        case .outputSizeTooLarge: return "LegacyCryptoError: requested output size too large"
        }
    }
}
