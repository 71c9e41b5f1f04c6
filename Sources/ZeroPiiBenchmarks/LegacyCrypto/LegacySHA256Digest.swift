import Foundation

/// The 32-byte output of ``LegacySHA256``.
struct LegacySHA256Digest: LegacyDigest {
    /// 32 bytes.
    static let byteCount = 32

    /// The digest bytes in output order, kept inline so a digest never allocates.
    private var bytes: (UInt64, UInt64, UInt64, UInt64)

    /// The digest of a final SHA-256 state: its eight words, big-endian.
    init(state: LegacySHA256Compression.State) {
        @inline(__always) func pair(_ high: UInt32, _ low: UInt32) -> UInt64 {
            // Two big-endian words as they lie in memory, read back as a native integer.
            (UInt64(high) << 32 | UInt64(low)).bigEndian
        }
        bytes = (pair(state.0, state.1), pair(state.2, state.3), pair(state.4, state.5), pair(state.6, state.7))
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        var copy = bytes
        return try Swift.withUnsafeBytes(of: &copy, body)
    }

    static func == (lhs: LegacySHA256Digest, rhs: LegacySHA256Digest) -> Bool {
        LegacyConstantTime.equals(lhs, rhs)
    }

    var description: String { "LegacySHA256Digest(32 bytes)" }
}
