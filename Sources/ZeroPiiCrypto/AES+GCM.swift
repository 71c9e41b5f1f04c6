import Foundation

extension AES {
    /// AES in Galois/Counter Mode (NIST SP 800-38D): authenticated encryption with
    /// associated data, 16-byte tags, and keys of 128, 192 or 256 bits.
    ///
    /// The names match Apple's CryptoKit so that code can move between the two.
    /// The cipher is bitsliced and the hash multiplies in constant time: neither the
    /// key nor the data steers a branch or a memory access. ``open(_:using:authenticating:)``
    /// checks the tag before decrypting anything, so no plaintext of a forged message
    /// is ever produced.
    package enum GCM {
        /// Encrypts and authenticates `message`, also authenticating `authenticatedData`.
        ///
        /// - Parameters:
        ///   - message: The plaintext to encrypt; it may be empty.
        ///   - key: A 128-, 192- or 256-bit key.
        ///   - nonce: A nonce that must never repeat under the same key; when omitted, a
        ///     fresh random 12-byte nonce is used.
        ///   - authenticatedData: Data that is authenticated but not encrypted; opening
        ///     the box needs the same bytes.
        /// - Returns: The nonce, the ciphertext and the 16-byte tag.
        /// - Throws: ``CryptoError/incorrectKeySize`` for a key that is not 128, 192 or
        ///   256 bits; ``CryptoError/incorrectParameterSize`` for a message longer than
        ///   GCM allows (2^36 − 32 bytes).
        package static func seal<Plaintext: DataProtocol, AuthenticatedData: DataProtocol>(
            _ message: Plaintext,
            using key: SymmetricKey,
            nonce: Nonce? = nil,
            authenticating authenticatedData: AuthenticatedData
        ) throws -> SealedBox {
            let nonce = nonce ?? Nonce()
            let engine = try key.withUnsafeBytes { try GCMEngine(key: $0) }
            var ciphertext = Data(count: message.count)
            var tag = Data(count: GCMEngine.tagByteCount)
            try message.withContiguousBytes { text in
                try authenticatedData.withContiguousBytes { associated in
                    try nonce.withUnsafeBytes { nonceBytes in
                        try ciphertext.withUnsafeMutableBytes { output in
                            try tag.withUnsafeMutableBytes { tagBytes in
                                try engine.seal(
                                    nonce: nonceBytes, text: text, associatedData: associated,
                                    output: output.baseAddress, tag: tagBytes.baseAddress!
                                )
                            }
                        }
                    }
                }
            }
            return SealedBox(validatedNonce: nonce, ciphertext: ciphertext, tag: tag)
        }

        /// Encrypts and authenticates `message` with no associated data.
        package static func seal<Plaintext: DataProtocol>(
            _ message: Plaintext, using key: SymmetricKey, nonce: Nonce? = nil
        ) throws -> SealedBox {
            try seal(message, using: key, nonce: nonce, authenticating: Data())
        }

        /// Verifies `sealedBox` and `authenticatedData`, then decrypts.
        ///
        /// - Throws: ``CryptoError/authenticationFailure`` when the tag does not match
        ///   (nothing is decrypted in that case); ``CryptoError/incorrectKeySize`` for a
        ///   key that is not 128, 192 or 256 bits.
        package static func open<AuthenticatedData: DataProtocol>(
            _ sealedBox: SealedBox, using key: SymmetricKey, authenticating authenticatedData: AuthenticatedData
        ) throws -> Data {
            let engine = try key.withUnsafeBytes { try GCMEngine(key: $0) }
            var plaintext = Data(count: sealedBox.ciphertext.count)
            try sealedBox.ciphertext.withContiguousBytes { ciphertext in
                try authenticatedData.withContiguousBytes { associated in
                    try sealedBox.nonce.withUnsafeBytes { nonceBytes in
                        try sealedBox.tag.withContiguousBytes { tag in
                            try plaintext.withUnsafeMutableBytes { output in
                                try engine.open(
                                    nonce: nonceBytes, ciphertext: ciphertext, associatedData: associated,
                                    tag: tag, output: output.baseAddress
                                )
                            }
                        }
                    }
                }
            }
            return plaintext
        }

        /// Verifies and decrypts `sealedBox`, which has no associated data.
        package static func open(_ sealedBox: SealedBox, using key: SymmetricKey) throws -> Data {
            try open(sealedBox, using: key, authenticating: Data())
        }
    }
}
