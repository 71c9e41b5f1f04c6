import Foundation

/// The 32-byte output of ``SHA256``.
package struct SHA256Digest: Digest {
    /// 32 bytes.
    package static let byteCount = 32

    /// The digest bytes in output order, kept inline so a digest never allocates.
    private var bytes: (UInt64, UInt64, UInt64, UInt64)

    /// The digest of a final SHA-256 state: its eight words, big-endian.
    init(state: SHA256Compression.State) {
        @inline(__always) func pair(_ high: UInt32, _ low: UInt32) -> UInt64 {
            // Two big-endian words as they lie in memory, read back as a native integer.
            (UInt64(high) << 32 | UInt64(low)).bigEndian
        }
        bytes = (pair(state.0, state.1), pair(state.2, state.3), pair(state.4, state.5), pair(state.6, state.7))
    }

    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        var copy = bytes
        return try Swift.withUnsafeBytes(of: &copy, body)
    }

    package static func == (lhs: SHA256Digest, rhs: SHA256Digest) -> Bool {
        ConstantTime.equals(lhs, rhs)
    }

    package var description: String { "SHA256Digest(32 bytes)" }
}
