import Foundation

/// The HMAC-based key derivation function of RFC 5869, over any ``HashFunction``.
///
/// `HKDF<SHA256>` is HKDF-SHA256, the derivation the ZeroPii v1 envelope uses.
public enum HKDF<H: HashFunction> {
    /// Derives `outputByteCount` bytes of key material from `inputKeyMaterial`,
    /// `salt` and `info` (extract, then expand).
    ///
    /// An empty salt is the same as a salt of `H.Digest.byteCount` zero bytes, as the RFC says.
    /// - Throws: ``CryptoError/outputSizeTooLarge`` when more than 255 digests are asked for,
    ///   ``CryptoError/incorrectParameterSize`` for a negative count.
    public static func deriveKey<Salt: DataProtocol, Info: DataProtocol>(
        inputKeyMaterial: SymmetricKey,
        salt: Salt,
        info: Info,
        outputByteCount: Int
    ) throws -> SymmetricKey {
        let pseudoRandomKey = extract(inputKeyMaterial: inputKeyMaterial, salt: salt)
        return try expand(pseudoRandomKey: pseudoRandomKey, info: info, outputByteCount: outputByteCount)
    }

    /// Derives key material with no salt (the same as a salt of zero bytes).
    public static func deriveKey<Info: DataProtocol>(
        inputKeyMaterial: SymmetricKey,
        info: Info,
        outputByteCount: Int
    ) throws -> SymmetricKey {
        try deriveKey(inputKeyMaterial: inputKeyMaterial, salt: [UInt8](), info: info, outputByteCount: outputByteCount)
    }

    /// Derives key material with neither salt nor info.
    public static func deriveKey(inputKeyMaterial: SymmetricKey, outputByteCount: Int) throws -> SymmetricKey {
        try deriveKey(inputKeyMaterial: inputKeyMaterial, salt: [UInt8](), info: [UInt8](), outputByteCount: outputByteCount)
    }

    /// The extract step: a pseudorandom key, `HMAC(salt, inputKeyMaterial)`.
    public static func extract<Salt: DataProtocol>(
        inputKeyMaterial: SymmetricKey, salt: Salt?
    ) -> HashedAuthenticationCode<H> {
        let saltKey = salt.map { $0.withContiguousBytes { SymmetricKey(data: $0) } } ?? SymmetricKey(data: [UInt8]())
        var hmac = HMAC<H>(key: saltKey)
        inputKeyMaterial.withUnsafeBytes { hmac.update(bufferPointer: $0) }
        return hmac.finalize()
    }

    /// The expand step: `outputByteCount` bytes from a pseudorandom key and `info`.
    /// - Throws: ``CryptoError/outputSizeTooLarge`` when more than 255 digests are asked for,
    ///   ``CryptoError/incorrectParameterSize`` for a negative count.
    public static func expand<PRK: ContiguousBytes, Info: DataProtocol>(
        pseudoRandomKey: PRK, info: Info?, outputByteCount: Int
    ) throws -> SymmetricKey {
        let digestByteCount = H.Digest.byteCount
        guard outputByteCount >= 0 else { throw CryptoError.incorrectParameterSize }
        guard outputByteCount <= 255 * digestByteCount else { throw CryptoError.outputSizeTooLarge }

        let keyed = HMAC<H>(key: SymmetricKey(data: pseudoRandomKey))
        let infoBytes = info.map { [UInt8]($0) } ?? []
        let storage = SecureBytes(count: outputByteCount) { output in
            var previous: HashedAuthenticationCode<H>?
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
        return SymmetricKey(storage: storage)
    }
}
