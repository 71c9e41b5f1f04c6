import Foundation

/// A message authentication code produced by ``LegacyHMAC``.
///
/// Codes compare in constant time, and their description never shows the bytes.
struct LegacyHashedAuthenticationCode<H: LegacyHashFunction>: Hashable, ContiguousBytes, Sequence,
    CustomStringConvertible, Sendable
{
    let digest: H.LegacyDigest

    init(digest: H.LegacyDigest) {
        self.digest = digest
    }

    /// The number of bytes in the code.
    var byteCount: Int { H.LegacyDigest.byteCount }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try digest.withUnsafeBytes(body)
    }

    func makeIterator() -> Array<UInt8>.Iterator {
        withUnsafeBytes { Array($0) }.makeIterator()
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        LegacyConstantTime.equals(lhs, rhs)
    }

    func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    var description: String { "LegacyHashedAuthenticationCode(\(byteCount) bytes)" }
}
