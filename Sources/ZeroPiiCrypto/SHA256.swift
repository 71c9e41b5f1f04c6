import Foundation

/// The SHA-256 hash function of FIPS 180-4.
///
/// Every operation is free of branches and table look-ups that depend on the data
/// being hashed, so hashing secrets (as HMAC and HKDF do) leaks nothing through timing.
public struct SHA256: HashFunction, Sendable {
    /// 64 bytes.
    public static let blockByteCount = 64
    /// 32 bytes.
    public static let byteCount = 32

    public typealias Digest = SHA256Digest

    private var state = SHA256Compression.initialState
    /// Bytes not yet compressed; at most one block minus one byte.
    private var pending = SHA256PendingBlock()
    private var pendingCount = 0
    /// The total number of bytes added, for the length field of the padding.
    private var totalByteCount: UInt64 = 0

    public init() {}

    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        guard var input = bufferPointer.baseAddress, bufferPointer.count > 0 else { return }
        var remaining = bufferPointer.count
        totalByteCount &+= UInt64(remaining)

        if pendingCount > 0 {
            let taken = Swift.min(remaining, Self.blockByteCount - pendingCount)
            pending.write(input, count: taken, at: pendingCount)
            pendingCount += taken
            input += taken
            remaining -= taken
            guard pendingCount == Self.blockByteCount else { return }
            pending.withBytes { SHA256Compression.compress(&state, blocks: $0, blockCount: 1) }
            pendingCount = 0
        }

        let wholeBlocks = remaining / Self.blockByteCount
        if wholeBlocks > 0 {
            SHA256Compression.compress(&state, blocks: input, blockCount: wholeBlocks)
            input += wholeBlocks * Self.blockByteCount
            remaining -= wholeBlocks * Self.blockByteCount
        }
        if remaining > 0 {
            pending.write(input, count: remaining, at: 0)
            pendingCount = remaining
        }
    }

    public func finalize() -> SHA256Digest {
        var copy = self
        return copy.padAndFinish()
    }

    private mutating func padAndFinish() -> SHA256Digest {
        let bitLength = totalByteCount &* 8
        // Padding: 0x80, zeros up to 56 mod 64, then the length in bits, big-endian.
        var padding = [UInt8](repeating: 0, count: Self.blockByteCount * 2)
        padding[0] = 0x80
        let zeroCount = (Self.blockByteCount + 55 - pendingCount) % Self.blockByteCount
        let paddingCount = 1 + zeroCount + 8
        for index in 0..<8 {
            padding[1 + zeroCount + index] = UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64(index)))
        }
        let countBefore = totalByteCount
        padding.withUnsafeBytes { update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<paddingCount])) }
        totalByteCount = countBefore
        precondition(pendingCount == 0, "padding always completes a block")

        var output = [UInt8](repeating: 0, count: Self.byteCount)
        for (index, word) in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7].enumerated() {
            output[4 * index] = UInt8(truncatingIfNeeded: word >> 24)
            output[4 * index + 1] = UInt8(truncatingIfNeeded: word >> 16)
            output[4 * index + 2] = UInt8(truncatingIfNeeded: word >> 8)
            output[4 * index + 3] = UInt8(truncatingIfNeeded: word)
        }
        return output.withUnsafeBytes { SHA256Digest(state: $0) }
    }
}

/// One block of input waiting for more bytes, kept inline so hashing never allocates.
struct SHA256PendingBlock: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    mutating func write(_ source: UnsafeRawPointer, count: Int, at offset: Int) {
        withUnsafeMutableBytes(of: &words) { destination in
            (destination.baseAddress! + offset).copyMemory(from: source, byteCount: count)
        }
    }

    mutating func withBytes(_ body: (UnsafeRawPointer) -> Void) {
        withUnsafeBytes(of: &words) { body($0.baseAddress!) }
    }
}
