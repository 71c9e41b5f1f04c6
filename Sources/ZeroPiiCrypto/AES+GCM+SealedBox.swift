import Foundation

extension AES.GCM {
    /// The result of sealing: the nonce, the ciphertext (as long as the plaintext) and
    /// the 16-byte authentication tag.
    package struct SealedBox: Sendable {
        /// The nonce the message was sealed with.
        package let nonce: Nonce
        /// The encrypted message, without the tag.
        package let ciphertext: Data
        /// The 16-byte authentication tag.
        package let tag: Data

        /// The nonce, ciphertext and tag concatenated, the usual wire form; `nil` when
        /// the nonce is not the standard 12 bytes, since a reader could not split it.
        package var combined: Data? {
            guard nonce.bytes.count == GCMEngine.standardNonceByteCount else { return nil }
            var result = Data(capacity: nonce.bytes.count + ciphertext.count + tag.count)
            result.append(nonce.bytes)
            result.append(ciphertext)
            result.append(tag)
            return result
        }

        /// A box from its three parts.
        /// - Throws: ``CryptoError/incorrectParameterSize`` when the tag is not 16 bytes.
        package init<Ciphertext: DataProtocol, Tag: DataProtocol>(
            nonce: Nonce, ciphertext: Ciphertext, tag: Tag
        ) throws {
            guard tag.count == GCMEngine.tagByteCount else { throw CryptoError.incorrectParameterSize }
            self.init(validatedNonce: nonce, ciphertext: Data(ciphertext), tag: Data(tag))
        }

        /// A box from its combined form: a 12-byte nonce, the ciphertext, a 16-byte tag.
        /// - Throws: ``CryptoError/incorrectParameterSize`` when `combined` is shorter
        ///   than 28 bytes.
        package init<D: DataProtocol>(combined: D) throws {
            let nonceCount = GCMEngine.standardNonceByteCount
            let tagCount = GCMEngine.tagByteCount
            guard combined.count >= nonceCount + tagCount else { throw CryptoError.incorrectParameterSize }
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
