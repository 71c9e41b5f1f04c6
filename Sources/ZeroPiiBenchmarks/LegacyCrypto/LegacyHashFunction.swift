import Foundation

/// The output of a hash function: a fixed number of bytes.
///
/// Digests compare in constant time. Their description gives the algorithm and
/// size only, because a digest of personal data is itself personal data.
protocol LegacyDigest: Hashable, ContiguousBytes, CustomStringConvertible, Sequence, Sendable
where Element == UInt8 {
    /// The number of bytes in the digest.
    static var byteCount: Int { get }
}

/// A cryptographic hash function that can be fed incrementally.
protocol LegacyHashFunction {
    /// The size of the function's internal block, in bytes (64 for SHA-256).
    static var blockByteCount: Int { get }

    /// The digest type the function produces.
    associatedtype LegacyDigest: zeropii_benchmarks.LegacyDigest

    /// A hash function in its initial state.
    init()

    /// Adds the bytes in `bufferPointer` to the data being hashed.
    mutating func update(bufferPointer: UnsafeRawBufferPointer)

    /// Returns the digest of all the data added so far. The function itself is not
    /// changed, so more data can be added and finalised again.
    func finalize() -> LegacyDigest
}

extension LegacyHashFunction {
    /// Adds `data` to the data being hashed.
    mutating func update<D: DataProtocol>(data: D) {
        data.withContiguousBytes { update(bufferPointer: $0) }
    }

    /// The digest of `data` in one call.
    static func hash<D: DataProtocol>(data: D) -> LegacyDigest {
        var function = Self()
        function.update(data: data)
        return function.finalize()
    }
}

extension LegacyDigest {
    /// Iterates over the digest's bytes.
    func makeIterator() -> Array<UInt8>.Iterator {
        withUnsafeBytes { Array($0) }.makeIterator()
    }

    func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
