import Foundation

/// The keyed-hash message authentication code of RFC 2104, over any ``HashFunction``.
///
/// `HMAC<SHA256>` is HMAC-SHA256. Verification compares codes in constant time.
public struct HMAC<H: HashFunction> {
    /// The code type this HMAC produces.
    public typealias MAC = HashedAuthenticationCode<H>

    private var inner: H
    private var outer: H

    /// An HMAC keyed with `key`, ready to be fed data.
    public init(key: SymmetricKey) {
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
        defer { paddedKey.withUnsafeMutableBytes { Wipe.bytes($0) } }

        inner = H()
        outer = H()
        var pad = [UInt8](repeating: 0, count: blockByteCount)
        defer { pad.withUnsafeMutableBytes { Wipe.bytes($0) } }
        for index in 0..<blockByteCount { pad[index] = paddedKey[index] ^ 0x36 }
        pad.withUnsafeBytes { inner.update(bufferPointer: $0) }
        for index in 0..<blockByteCount { pad[index] = paddedKey[index] ^ 0x5c }
        pad.withUnsafeBytes { outer.update(bufferPointer: $0) }
    }

    /// Adds `data` to the message being authenticated.
    public mutating func update<D: DataProtocol>(data: D) {
        data.withContiguousBytes { inner.update(bufferPointer: $0) }
    }

    /// Adds the bytes in `bufferPointer` to the message being authenticated.
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        inner.update(bufferPointer: bufferPointer)
    }

    /// The code for everything added so far.
    public func finalize() -> MAC {
        var outerCopy = outer
        inner.finalize().withUnsafeBytes { outerCopy.update(bufferPointer: $0) }
        return MAC(digest: outerCopy.finalize())
    }

    /// The code of `data` under `key`.
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> MAC {
        var hmac = Self(key: key)
        hmac.update(data: data)
        return hmac.finalize()
    }

    /// Whether `mac` is the code of `data` under `key`, compared in constant time.
    public static func isValidAuthenticationCode<D: DataProtocol>(
        _ mac: MAC, authenticating data: D, using key: SymmetricKey
    ) -> Bool {
        authenticationCode(for: data, using: key) == mac
    }

    /// Whether `authenticationCode` holds the full code of `data` under `key`,
    /// compared in constant time. A code of any other length is rejected.
    public static func isValidAuthenticationCode<C: ContiguousBytes, D: DataProtocol>(
        _ authenticationCode: C, authenticating data: D, using key: SymmetricKey
    ) -> Bool {
        ConstantTime.equals(Self.authenticationCode(for: data, using: key), authenticationCode)
    }
}

extension HMAC: Sendable where H: Sendable {}
