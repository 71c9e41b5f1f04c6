import Foundation

/// The keyed-hash message authentication code of RFC 2104, over any ``LegacyHashFunction``.
///
/// `LegacyHMAC<LegacySHA256>` is LegacyHMAC-LegacySHA256. Verification compares codes in constant time.
struct LegacyHMAC<H: LegacyHashFunction> {
    /// The code type this LegacyHMAC produces.
    typealias MAC = LegacyHashedAuthenticationCode<H>

    private var inner: H
    private var outer: H

    /// An LegacyHMAC keyed with `key`, ready to be fed data.
    init(key: LegacySymmetricKey) {
        let blockByteCount = H.blockByteCount
        var paddedKey = [UInt8](repeating: 0, count: blockByteCount)
        key.withUnsafeBytes { keyBytes in
            if keyBytes.count > blockByteCount {
                H.hash(data: UnsafeRawBufferPointer(keyBytes)).withUnsafeBytes { digest in
                    for index in 0..<digest.count { paddedKey[index] = digest[index] }
                }
            } else {
                for index in 0..<keyBytes.count { paddedKey[index] = keyBytes[index] }
            }
        }
        defer { paddedKey.withUnsafeMutableBytes { LegacyWipe.bytes($0) } }

        inner = H()
        outer = H()
        var pad = [UInt8](repeating: 0, count: blockByteCount)
        defer { pad.withUnsafeMutableBytes { LegacyWipe.bytes($0) } }
        for index in 0..<blockByteCount { pad[index] = paddedKey[index] ^ 0x36 }
        pad.withUnsafeBytes { inner.update(bufferPointer: $0) }
        for index in 0..<blockByteCount { pad[index] = paddedKey[index] ^ 0x5c }
        pad.withUnsafeBytes { outer.update(bufferPointer: $0) }
    }

    /// Adds `data` to the message being authenticated.
    mutating func update<D: DataProtocol>(data: D) {
        data.withContiguousBytes { inner.update(bufferPointer: $0) }
    }

    /// Adds the bytes in `bufferPointer` to the message being authenticated.
    mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        inner.update(bufferPointer: bufferPointer)
    }

    /// The code for everything added so far.
    func finalize() -> MAC {
        var outerCopy = outer
        inner.finalize().withUnsafeBytes { outerCopy.update(bufferPointer: $0) }
        return MAC(digest: outerCopy.finalize())
    }

    /// The code of `data` under `key`.
    static func authenticationCode<D: DataProtocol>(for data: D, using key: LegacySymmetricKey) -> MAC {
        var hmac = Self(key: key)
        hmac.update(data: data)
        return hmac.finalize()
    }

    /// Whether `mac` is the code of `data` under `key`, compared in constant time.
    static func isValidAuthenticationCode<D: DataProtocol>(
        _ mac: MAC, authenticating data: D, using key: LegacySymmetricKey
    ) -> Bool {
        authenticationCode(for: data, using: key) == mac
    }

    /// Whether `authenticationCode` holds the full code of `data` under `key`,
    /// compared in constant time. A code of any other length is rejected.
    static func isValidAuthenticationCode<C: ContiguousBytes, D: DataProtocol>(
        _ authenticationCode: C, authenticating data: D, using key: LegacySymmetricKey
    ) -> Bool {
        LegacyConstantTime.equals(Self.authenticationCode(for: data, using: key), authenticationCode)
    }
}

extension LegacyHMAC: Sendable where H: Sendable {}
