import Foundation

/// The 32-byte output of ``SHA256``.
public struct SHA256Digest: Digest {
    /// 32 bytes.
    public static let byteCount = 32

    /// The digest bytes in output order, kept inline so a digest never allocates.
    private var bytes: (UInt64, UInt64, UInt64, UInt64)

    init(state: UnsafeRawBufferPointer) {
        precondition(state.count == Self.byteCount)
        bytes = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { $0.copyMemory(from: state) }
    }

    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        var copy = bytes
        return try Swift.withUnsafeBytes(of: &copy, body)
    }

    public static func == (lhs: SHA256Digest, rhs: SHA256Digest) -> Bool {
        ConstantTime.equals(lhs, rhs)
    }

    public var description: String { "SHA256Digest(32 bytes)" }
}
