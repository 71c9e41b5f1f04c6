import Foundation

/// The SHA-256 hash function of FIPS 180-4.
///
/// Every operation is free of branches and table look-ups that depend on the data
/// being hashed, so hashing secrets (as HMAC and HKDF do) leaks nothing through timing.
package struct SHA256: HashFunction, Sendable {
    /// 64 bytes.
    package static let blockByteCount = 64
    /// 32 bytes.
    package static let byteCount = 32

    /// The digest type: 32 bytes.
    package typealias Digest = SHA256Digest

    private var state = SHA256Compression.initialState
    /// Bytes not yet compressed; at most one block minus one byte.
    private var pending = SHA256PendingBlock()
    private var pendingCount = 0
    /// The total number of bytes added, for the length field of the padding.
    private var totalByteCount: UInt64 = 0

    package init() {}

    /// Adds the bytes in `bufferPointer` to the data being hashed.
    package mutating func update(bufferPointer: UnsafeRawBufferPointer) {
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

    /// The digest of everything added so far; the hasher can go on being used.
    package func finalize() -> SHA256Digest {
        var copy = self
        let digest = copy.padAndFinish()
        // The copy held the last block of the message, which may be secret.
        Wipe.value(&copy, .hashState)
        return digest
    }

    /// Pads in place (0x80, zeros to 56 mod 64, the bit length big-endian) and
    /// compresses the last block or two, without allocating.
    private mutating func padAndFinish() -> SHA256Digest {
        let bitLength = totalByteCount &* 8
        pending.withMutableBytes { block in
            block[pendingCount] = 0x80
            for index in (pendingCount + 1)..<Self.blockByteCount { block[index] = 0 }
            if pendingCount >= 56 {
                SHA256Compression.compress(&state, blocks: UnsafeRawPointer(block.baseAddress!), blockCount: 1)
                for index in 0..<56 { block[index] = 0 }
            }
            block.storeBytes(of: bitLength.bigEndian, toByteOffset: 56, as: UInt64.self)
            SHA256Compression.compress(&state, blocks: UnsafeRawPointer(block.baseAddress!), blockCount: 1)
        }
        pendingCount = 0
        return SHA256Digest(state: state)
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

    mutating func withMutableBytes(_ body: (UnsafeMutableRawBufferPointer) -> Void) {
        withUnsafeMutableBytes(of: &words) { body($0) }
    }
}
