import Foundation

/// The output of a hash function: a fixed number of bytes.
///
/// Digests compare in constant time. Their description gives the algorithm and
/// size only, because a digest of personal data is itself personal data.
package protocol Digest: Hashable, ContiguousBytes, CustomStringConvertible, Sequence, Sendable
where Element == UInt8 {
    /// The number of bytes in the digest.
    static var byteCount: Int { get }
}

/// A cryptographic hash function that can be fed incrementally.
package protocol HashFunction {
    /// The size of the function's internal block, in bytes (64 for SHA-256).
    static var blockByteCount: Int { get }

    // The module name is needed to reach the protocol past this associated type, and it
    // differs under CocoaPods and in the XCFramework (Scripts/build-xcframework.sh), which
    // compile every part of the SDK into the one module CleverTapZeroPiiSDK.
    #if SWIFT_PACKAGE && !ZEROPII_SINGLE_MODULE
    /// The digest type the function produces.
    associatedtype Digest: ZeroPiiCrypto.Digest
    #else
    /// The digest type the function produces.
    associatedtype Digest: CleverTapZeroPiiSDK.Digest
    #endif

    /// A hash function in its initial state.
    init()

    /// Adds the bytes in `bufferPointer` to the data being hashed.
    mutating func update(bufferPointer: UnsafeRawBufferPointer)

    /// Returns the digest of all the data added so far. The function itself is not
    /// changed, so more data can be added and finalised again.
    func finalize() -> Digest
}

extension HashFunction {
    /// Adds `data` to the data being hashed.
    package mutating func update<D: DataProtocol>(data: D) {
        data.withContiguousBytes { update(bufferPointer: $0) }
    }

    /// The digest of `data` in one call.
    package static func hash<D: DataProtocol>(data: D) -> Digest {
        var function = Self()
        function.update(data: data)
        let digest = function.finalize()
        // The state holds the tail of the data, which may be a secret (HMAC hashes long keys).
        Wipe.value(&function, .hashState)
        return digest
    }
}

extension Digest {
    /// Iterates over the digest's bytes.
    package func makeIterator() -> Array<UInt8>.Iterator {
        withUnsafeBytes { Array($0) }.makeIterator()
    }

    package func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
