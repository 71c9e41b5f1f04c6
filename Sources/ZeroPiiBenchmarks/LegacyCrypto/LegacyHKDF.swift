import Foundation

/// The LegacyHMAC-based key derivation function of RFC 5869, over any ``LegacyHashFunction``.
///
/// `LegacyHKDF<LegacySHA256>` is LegacyHKDF-LegacySHA256, the derivation the ZeroPii v1 envelope uses.
enum LegacyHKDF<H: LegacyHashFunction> {
    /// Derives `outputByteCount` bytes of key material from `inputKeyMaterial`,
    /// `salt` and `info` (extract, then expand).
    ///
    /// An empty salt is the same as a salt of `H.LegacyDigest.byteCount` zero bytes, as the RFC says.
    /// - Throws: ``LegacyCryptoError/outputSizeTooLarge`` when more than 255 digests are asked for,
    ///   ``LegacyCryptoError/incorrectParameterSize`` for a negative count.
    static func deriveKey<Salt: DataProtocol, Info: DataProtocol>(
        inputKeyMaterial: LegacySymmetricKey,
        salt: Salt,
        info: Info,
        outputByteCount: Int
    ) throws -> LegacySymmetricKey {
        let pseudoRandomKey = extract(inputKeyMaterial: inputKeyMaterial, salt: salt)
        return try expand(pseudoRandomKey: pseudoRandomKey, info: info, outputByteCount: outputByteCount)
    }

    /// Derives key material with no salt (the same as a salt of zero bytes).
    static func deriveKey<Info: DataProtocol>(
        inputKeyMaterial: LegacySymmetricKey,
        info: Info,
        outputByteCount: Int
    ) throws -> LegacySymmetricKey {
        try deriveKey(inputKeyMaterial: inputKeyMaterial, salt: [UInt8](), info: info, outputByteCount: outputByteCount)
    }

    /// Derives key material with neither salt nor info.
    static func deriveKey(inputKeyMaterial: LegacySymmetricKey, outputByteCount: Int) throws -> LegacySymmetricKey {
        try deriveKey(inputKeyMaterial: inputKeyMaterial, salt: [UInt8](), info: [UInt8](), outputByteCount: outputByteCount)
    }

    /// The extract step: a pseudorandom key, `LegacyHMAC(salt, inputKeyMaterial)`.
    static func extract<Salt: DataProtocol>(
        inputKeyMaterial: LegacySymmetricKey, salt: Salt?
    ) -> LegacyHashedAuthenticationCode<H> {
        let saltKey = salt.map { $0.withContiguousBytes { LegacySymmetricKey(data: $0) } } ?? LegacySymmetricKey(data: [UInt8]())
        var hmac = LegacyHMAC<H>(key: saltKey)
        inputKeyMaterial.withUnsafeBytes { hmac.update(bufferPointer: $0) }
        return hmac.finalize()
    }

    /// The expand step: `outputByteCount` bytes from a pseudorandom key and `info`.
    /// - Throws: ``LegacyCryptoError/outputSizeTooLarge`` when more than 255 digests are asked for,
    ///   ``LegacyCryptoError/incorrectParameterSize`` for a negative count.
    static func expand<PRK: ContiguousBytes, Info: DataProtocol>(
        pseudoRandomKey: PRK, info: Info?, outputByteCount: Int
    ) throws -> LegacySymmetricKey {
        let digestByteCount = H.LegacyDigest.byteCount
        guard outputByteCount >= 0 else { throw LegacyCryptoError.incorrectParameterSize }
        guard outputByteCount <= 255 * digestByteCount else { throw LegacyCryptoError.outputSizeTooLarge }

        let keyed = LegacyHMAC<H>(key: LegacySymmetricKey(data: pseudoRandomKey))
        let infoBytes = info.map { [UInt8]($0) } ?? []
        let storage = LegacySecureBytes(count: outputByteCount) { output in
            var previous: LegacyHashedAuthenticationCode<H>?
            var written = 0
            var counter: UInt8 = 1
            while written < outputByteCount {
                var hmac = keyed
                if let previous { previous.withUnsafeBytes { hmac.update(bufferPointer: $0) } }
                infoBytes.withUnsafeBytes { hmac.update(bufferPointer: $0) }
                withUnsafeBytes(of: &counter) { hmac.update(bufferPointer: $0) }
                let block = hmac.finalize()
                block.withUnsafeBytes { blockBytes in
                    let count = Swift.min(blockBytes.count, outputByteCount - written)
                    for index in 0..<count { output[written + index] = blockBytes[index] }
                    written += count
                }
                previous = block
                counter &+= 1
            }
        }
        return LegacySymmetricKey(storage: storage)
    }
}
