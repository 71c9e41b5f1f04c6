import Foundation

/// The keyed-hash message authentication code of RFC 2104, over any ``HashFunction``.
///
/// `HMAC<SHA256>` is HMAC-SHA256. Verification compares codes in constant time.
/// The padded key and every intermediate hash state are wiped inside the one-shot
/// functions (``authenticationCode(for:using:)``, the verifiers, and ``HKDF``); an
/// instance kept by the caller holds key-dependent states until it is released.
package struct HMAC<H: HashFunction> {
    /// The code type this HMAC produces.
    package typealias MAC = HashedAuthenticationCode<H>

    private var inner: H
    private var outer: H

    /// An HMAC keyed with `key`, ready to be fed data.
    package init(key: SymmetricKey) {
        self = key.withUnsafeBytes { Self(keyBytes: $0) }
    }

    /// An HMAC keyed with raw bytes, for callers that hold the key in wiped memory of
    /// their own (HKDF's pseudorandom key, an envelope's salt).
    init(keyBytes: UnsafeRawBufferPointer) {
        let blockByteCount = H.blockByteCount
        var inner = H()
        var outer = H()
        // One buffer: the zero-padded key XOR ipad, then turned into the key XOR opad.
        // On the stack for block sizes up to 128 bytes (SHA-256's is 64).
        var padWords:
            (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if blockByteCount <= MemoryLayout.size(ofValue: padWords) {
            withUnsafeMutableBytes(of: &padWords) { words in
                Self.absorbPads(
                    key: keyBytes, pad: UnsafeMutableRawBufferPointer(rebasing: words[0..<blockByteCount]), inner: &inner, outer: &outer
                )
            }
        } else {
            var pad = [UInt8](repeating: 0, count: blockByteCount)
            pad.withUnsafeMutableBytes { Self.absorbPads(key: keyBytes, pad: $0, inner: &inner, outer: &outer) }
        }
        self.inner = inner
        self.outer = outer
        Wipe.value(&inner, .hmacState)
        Wipe.value(&outer, .hmacState)
    }

    /// Absorbs the key XOR ipad into `inner` and the key XOR opad into `outer`, using
    /// `pad` (one block, zeroed) as room, and wipes it. A static function with the
    /// states passed in: a nested function capturing them made every access a
    /// run-time exclusivity check.
    private static func absorbPads(key keyBytes: UnsafeRawBufferPointer, pad: UnsafeMutableRawBufferPointer, inner: inout H, outer: inout H) {
        if keyBytes.count > pad.count {
            var digest = H.hash(data: keyBytes)
            digest.withUnsafeBytes { pad.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            Wipe.value(&digest, .hmacState)
        } else if keyBytes.count > 0 {
            pad.baseAddress!.copyMemory(from: keyBytes.baseAddress!, byteCount: keyBytes.count)
        }
        for index in 0..<pad.count { pad[index] ^= 0x36 }
        inner.update(bufferPointer: UnsafeRawBufferPointer(pad))
        for index in 0..<pad.count { pad[index] ^= 0x36 ^ 0x5c }
        outer.update(bufferPointer: UnsafeRawBufferPointer(pad))
        Wipe.bytes(pad, .hmacState)
    }

    /// Adds `data` to the message being authenticated.
    package mutating func update<D: DataProtocol>(data: D) {
        data.withContiguousBytes { inner.update(bufferPointer: $0) }
    }

    /// Adds the bytes in `bufferPointer` to the message being authenticated.
    package mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        inner.update(bufferPointer: bufferPointer)
    }

    /// The code for everything added so far.
    package func finalize() -> MAC {
        var outerCopy = outer
        var innerDigest = inner.finalize()
        innerDigest.withUnsafeBytes { outerCopy.update(bufferPointer: $0) }
        let code = MAC(digest: outerCopy.finalize())
        Wipe.value(&innerDigest, .hmacState)
        Wipe.value(&outerCopy, .hmacState)
        return code
    }

    /// Zeroes the inner and outer hash states, which are as good as the key: with them
    /// anyone can compute codes. The instance must not be used afterwards.
    mutating func wipe() {
        Wipe.value(&inner, .hmacState)
        Wipe.value(&outer, .hmacState)
    }

    /// The code of `data` under `key`.
    package static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> MAC {
        var hmac = Self(key: key)
        defer { hmac.wipe() }
        hmac.update(data: data)
        return hmac.finalize()
    }

    /// Whether `mac` is the code of `data` under `key`, compared in constant time.
    package static func isValidAuthenticationCode<D: DataProtocol>(
        _ mac: MAC, authenticating data: D, using key: SymmetricKey
    ) -> Bool {
        authenticationCode(for: data, using: key) == mac
    }

    /// Whether `authenticationCode` holds the full code of `data` under `key`,
    /// compared in constant time. A code of any other length is rejected.
    package static func isValidAuthenticationCode<C: ContiguousBytes, D: DataProtocol>(
        _ authenticationCode: C, authenticating data: D, using key: SymmetricKey
    ) -> Bool {
        ConstantTime.equals(Self.authenticationCode(for: data, using: key), authenticationCode)
    }
}

extension HMAC: Sendable where H: Sendable {}
