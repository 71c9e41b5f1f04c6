import Foundation

/// The HMAC-based key derivation function of RFC 5869, over any ``HashFunction``.
///
/// `HKDF<SHA256>` is HKDF-SHA256, the derivation the ZeroPii v1 envelope uses.
/// The pseudorandom key, the `T(i)` blocks and the HMAC states are wiped as soon as
/// the output key is written; only the returned key (itself wiped on release) remains.
package enum HKDF<H: HashFunction> {
    /// Derives `outputByteCount` bytes of key material from `inputKeyMaterial`,
    /// `salt` and `info` (extract, then expand).
    ///
    /// An empty salt is the same as a salt of `H.Digest.byteCount` zero bytes, as the RFC says.
    /// - Throws: ``CryptoError/outputSizeTooLarge`` when more than 255 digests are asked for,
    ///   ``CryptoError/incorrectParameterSize`` for a negative count.
    package static func deriveKey<Salt: DataProtocol, Info: DataProtocol>(
        inputKeyMaterial: SymmetricKey,
        salt: Salt,
        info: Info,
        outputByteCount: Int
    ) throws -> SymmetricKey {
        try checkOutputByteCount(outputByteCount)
        var pseudoRandomKey = extract(inputKeyMaterial: inputKeyMaterial, salt: salt)
        defer { Wipe.value(&pseudoRandomKey, .hkdfPseudoRandomKey) }
        return try expand(pseudoRandomKey: pseudoRandomKey, info: info, outputByteCount: outputByteCount)
    }

    /// Derives key material with no salt (the same as a salt of zero bytes).
    package static func deriveKey<Info: DataProtocol>(
        inputKeyMaterial: SymmetricKey,
        info: Info,
        outputByteCount: Int
    ) throws -> SymmetricKey {
        try deriveKey(inputKeyMaterial: inputKeyMaterial, salt: [UInt8](), info: info, outputByteCount: outputByteCount)
    }

    /// Derives key material with neither salt nor info.
    package static func deriveKey(inputKeyMaterial: SymmetricKey, outputByteCount: Int) throws -> SymmetricKey {
        try deriveKey(inputKeyMaterial: inputKeyMaterial, salt: [UInt8](), info: [UInt8](), outputByteCount: outputByteCount)
    }

    /// The extract step: a pseudorandom key, `HMAC(salt, inputKeyMaterial)`. The
    /// caller owns the result, which is as secret as the input key.
    package static func extract<Salt: DataProtocol>(
        inputKeyMaterial: SymmetricKey, salt: Salt?
    ) -> HashedAuthenticationCode<H> {
        inputKeyMaterial.withUnsafeBytes { keyMaterial in
            if let salt {
                return salt.withContiguousBytes { extract(inputKeyMaterial: keyMaterial, salt: $0) }
            }
            return extract(inputKeyMaterial: keyMaterial, salt: UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// The extract step on raw bytes.
    static func extract(inputKeyMaterial: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer) -> HashedAuthenticationCode<H> {
        var hmac = HMAC<H>(keyBytes: salt)
        defer { hmac.wipe() }
        hmac.update(bufferPointer: inputKeyMaterial)
        return hmac.finalize()
    }

    /// The expand step: `outputByteCount` bytes from a pseudorandom key and `info`.
    /// - Throws: ``CryptoError/outputSizeTooLarge`` when more than 255 digests are asked for,
    ///   ``CryptoError/incorrectParameterSize`` for a negative count.
    package static func expand<PRK: ContiguousBytes, Info: DataProtocol>(
        pseudoRandomKey: PRK, info: Info?, outputByteCount: Int
    ) throws -> SymmetricKey {
        try checkOutputByteCount(outputByteCount)
        var keyed = pseudoRandomKey.withUnsafeBytes { HMAC<H>(keyBytes: $0) }
        defer { keyed.wipe() }
        let storage = SecureBytes(count: outputByteCount) { output in
            if let info {
                info.withContiguousBytes { expand(keyed: keyed, info: $0, into: output) }
            } else {
                expand(keyed: keyed, info: UnsafeRawBufferPointer(start: nil, count: 0), into: output)
            }
        }
        return SymmetricKey(storage: storage)
    }

    /// Both halves of a key pair that share one input key and salt: one extract step,
    /// one keyed HMAC for the pseudorandom key, and two expansions that differ in
    /// `info` only. Writes `first` then `second` (`output.count / 2` bytes each).
    static func deriveKeyPair(
        inputKeyMaterial: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
        firstInfo: UnsafeRawBufferPointer, secondInfo: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) {
        var pseudoRandomKey = extract(inputKeyMaterial: inputKeyMaterial, salt: salt)
        var keyed = pseudoRandomKey.withUnsafeBytes { HMAC<H>(keyBytes: $0) }
        Wipe.value(&pseudoRandomKey, .hkdfPseudoRandomKey)
        let half = output.count / 2
        expand(keyed: keyed, info: firstInfo, into: UnsafeMutableRawBufferPointer(rebasing: output[0..<half]))
        expand(keyed: keyed, info: secondInfo, into: UnsafeMutableRawBufferPointer(rebasing: output[half..<(2 * half)]))
        keyed.wipe()
    }

    /// `T(1) | T(2) | …` truncated to `output.count`, where
    /// `T(i) = HMAC(PRK, T(i-1) | info | i)` and `keyed` is the HMAC keyed with the PRK.
    private static func expand(keyed: HMAC<H>, info: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        guard output.count > 0 else { return }
        var counter: UInt8 = 1
        var block = outputBlock(keyed: keyed, previous: UnsafeRawBufferPointer(start: nil, count: 0), info: info, counter: counter)
        var written = 0
        while true {
            block.withUnsafeBytes { blockBytes in
                let count = Swift.min(blockBytes.count, output.count - written)
                (output.baseAddress! + written).copyMemory(from: blockBytes.baseAddress!, byteCount: count)
                written += count
            }
            if written == output.count { break }
            counter &+= 1
            var next = block.withUnsafeBytes { outputBlock(keyed: keyed, previous: $0, info: info, counter: counter) }
            Wipe.value(&block, .hkdfOutputBlock)
            block = next
            Wipe.value(&next, .hkdfOutputBlock)
        }
        Wipe.value(&block, .hkdfOutputBlock)
    }

    /// `T(i) = HMAC(PRK, T(i-1) | info | i)`, with `T(0)` empty.
    private static func outputBlock(
        keyed: HMAC<H>, previous: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer, counter: UInt8
    ) -> HashedAuthenticationCode<H> {
        var hmac = keyed
        defer { hmac.wipe() }
        hmac.update(bufferPointer: previous)
        hmac.update(bufferPointer: info)
        var counter = counter
        withUnsafeBytes(of: &counter) { hmac.update(bufferPointer: $0) }
        return hmac.finalize()
    }

    private static func checkOutputByteCount(_ outputByteCount: Int) throws {
        guard outputByteCount >= 0 else { throw CryptoError.incorrectParameterSize }
        guard outputByteCount <= 255 * H.Digest.byteCount else { throw CryptoError.outputSizeTooLarge }
    }
}
