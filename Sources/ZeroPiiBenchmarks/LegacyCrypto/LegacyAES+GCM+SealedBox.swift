import Foundation

extension LegacyAES.GCM {
    /// The result of sealing: the nonce, the ciphertext (as long as the plaintext) and
    /// the 16-byte authentication tag.
    struct SealedBox: Sendable {
        /// The nonce the message was sealed with.
        let nonce: Nonce
        /// The encrypted message, without the tag.
        let ciphertext: Data
        /// The 16-byte authentication tag.
        let tag: Data

        /// The nonce, ciphertext and tag concatenated, the usual wire form; `nil` when
        /// the nonce is not the standard 12 bytes, since a reader could not split it.
        var combined: Data? {
            guard nonce.bytes.count == LegacyGCMEngine.standardNonceByteCount else { return nil }
            var result = Data(capacity: nonce.bytes.count + ciphertext.count + tag.count)
            result.append(nonce.bytes)
            result.append(ciphertext)
            result.append(tag)
            return result
        }

        /// A box from its three parts.
        /// - Throws: ``LegacyCryptoError/incorrectParameterSize`` when the tag is not 16 bytes.
        init<Ciphertext: DataProtocol, Tag: DataProtocol>(
            nonce: Nonce, ciphertext: Ciphertext, tag: Tag
        ) throws {
            guard tag.count == LegacyGCMEngine.tagByteCount else { throw LegacyCryptoError.incorrectParameterSize }
            self.init(validatedNonce: nonce, ciphertext: Data(ciphertext), tag: Data(tag))
        }

        /// A box from its combined form: a 12-byte nonce, the ciphertext, a 16-byte tag.
        /// - Throws: ``LegacyCryptoError/incorrectParameterSize`` when `combined` is shorter
        ///   than 28 bytes.
        init<D: DataProtocol>(combined: D) throws {
            let nonceCount = LegacyGCMEngine.standardNonceByteCount
            let tagCount = LegacyGCMEngine.tagByteCount
            guard combined.count >= nonceCount + tagCount else { throw LegacyCryptoError.incorrectParameterSize }
            let bytes = Data(combined)
            let start = bytes.startIndex
            nonce = try Nonce(data: bytes[start..<start + nonceCount])
            ciphertext = Data(bytes[(start + nonceCount)..<(bytes.endIndex - tagCount)])
            tag = Data(bytes[(bytes.endIndex - tagCount)...])
        }

        init(validatedNonce: Nonce, ciphertext: Data, tag: Data) {
            nonce = validatedNonce
            self.ciphertext = ciphertext
            self.tag = tag
        }
    }
}
