import Foundation

/// A message authentication code produced by ``HMAC``.
///
/// Codes compare in constant time, and their description never shows the bytes.
public struct HashedAuthenticationCode<H: HashFunction>: Hashable, ContiguousBytes, Sequence,
    CustomStringConvertible, Sendable
{
    let digest: H.Digest

    init(digest: H.Digest) {
        self.digest = digest
    }

    /// The number of bytes in the code.
    public var byteCount: Int { H.Digest.byteCount }

    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try digest.withUnsafeBytes(body)
    }

    public func makeIterator() -> Array<UInt8>.Iterator {
        withUnsafeBytes { Array($0) }.makeIterator()
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        ConstantTime.equals(lhs, rhs)
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public var description: String { "HashedAuthenticationCode(\(byteCount) bytes)" }
}
