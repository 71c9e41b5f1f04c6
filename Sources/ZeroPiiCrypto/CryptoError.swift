import Foundation

/// An error thrown by the cryptographic primitives in ``ZeroPiiCrypto``.
///
/// The type is a struct with static values rather than an enum so that new
/// failure kinds can be added without breaking code that switches over it.
/// Descriptions name the failure only; they never contain key material,
/// plaintext or ciphertext.
package struct CryptoError: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
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

    /// The key is not a size the algorithm accepts (AES takes 128, 192 or 256 bits).
    package static let incorrectKeySize = CryptoError(.incorrectKeySize)

    /// A nonce, tag, combined box or message has a length the algorithm does not accept.
    package static let incorrectParameterSize = CryptoError(.incorrectParameterSize)

    /// The authentication tag did not match: the data, the associated data,
    /// the nonce or the key is not the one that was sealed.
    package static let authenticationFailure = CryptoError(.authenticationFailure)

    /// A key derivation was asked for more output than the construction can produce
    /// (HKDF: at most 255 times the digest size).
    package static let outputSizeTooLarge = CryptoError(.outputSizeTooLarge)

    /// The same text as ``description``, for code that shows `localizedDescription`.
    package var errorDescription: String? { description }

    package var description: String {
        switch code {
        case .incorrectKeySize: return "CryptoError: incorrect key size"
        case .incorrectParameterSize: return "CryptoError: incorrect parameter size"
        case .authenticationFailure: return "CryptoError: authentication failure"
        case .outputSizeTooLarge: return "CryptoError: requested output size too large"
        }
    }
}
