import Foundation

/// A message authentication code produced by ``HMAC``.
///
/// Codes compare in constant time, and their description never shows the bytes.
package struct HashedAuthenticationCode<H: HashFunction>: Hashable, ContiguousBytes, Sequence,
    CustomStringConvertible, Sendable
{
    let digest: H.Digest

    init(digest: H.Digest) {
        self.digest = digest
    }

    /// The number of bytes in the code.
    package var byteCount: Int { H.Digest.byteCount }

    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try digest.withUnsafeBytes(body)
    }

    package func makeIterator() -> Array<UInt8>.Iterator {
        withUnsafeBytes { Array($0) }.makeIterator()
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        ConstantTime.equals(lhs, rhs)
    }

    package func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    package var description: String { "HashedAuthenticationCode(\(byteCount) bytes)" }
}
