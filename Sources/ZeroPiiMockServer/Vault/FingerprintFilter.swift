/// Which fingerprints ``VaultIndex`` may hold, in memory: a fingerprint the filter does
/// not have is not in the vault, so looking up a new value reads no index page. In bulk
/// tokenization nearly every value is new, and without the filter each one cost a page
/// read once the table outgrew the page cache.
///
/// A split-block Bloom filter: a fingerprint sets one bit in each of the eight 64-bit
/// words of one 64-byte block. Fingerprints are keyed HMAC output, uniformly random, so
/// the block comes straight from `low` and the eight bits from the lowest 48 bits of
/// `high` (the table's home slot comes from the highest bits of `high`). It never
/// answers no for a fingerprint it was given; it answers yes for one it was not given
/// about 0.01% of the time just after the table doubles and 0.5% just before (at 23 and
/// 11 bits a value), and each such yes costs one lookup in the table.
///
/// Its size follows the table's: ``blocksPerPage`` blocks, 256 bytes, for each page of
/// 255 slots, one byte a slot. The table is 35% to 70% full, so that is 1.4 to 2.9 bytes
/// (11 to 23 bits) a value: 32 MiB for the 131,072-page table of 20 million values. It
/// is built whenever the table is (opened, rebuilt, grown) from the fingerprints that
/// are read then anyway.
final class FingerprintFilter {
    static let blocksPerPage = 4
    private static let wordsPerBlock = 8

    let blockCount: Int
    private let memory: MappedMemory
    private let words: UnsafeMutablePointer<UInt64>

    /// An empty filter for a table of `pageCount` pages.
    init(pageCount: Int) {
        blockCount = max(1, pageCount * Self.blocksPerPage)
        memory = MappedMemory(byteCount: blockCount * Self.wordsPerBlock * 8)
        words = memory.bytes.bindMemory(to: UInt64.self, capacity: blockCount * Self.wordsPerBlock)
    }

    /// The filter's memory in bytes.
    var byteCount: Int { blockCount * Self.wordsPerBlock * 8 }

    func insert(_ fingerprint: Fingerprint) {
        let block = words + self.block(of: fingerprint)
        var bits = fingerprint.high
        for word in 0..<Self.wordsPerBlock {
            block[word] |= 1 << (bits & 63)
            bits >>= 6
        }
    }

    /// False only when `fingerprint` was never inserted.
    func mayContain(_ fingerprint: Fingerprint) -> Bool {
        let block = words + self.block(of: fingerprint)
        var bits = fingerprint.high
        for word in 0..<Self.wordsPerBlock {
            if block[word] & (1 << (bits & 63)) == 0 { return false }
            bits >>= 6
        }
        return true
    }

    /// The index of the first word of `fingerprint`'s block.
    private func block(of fingerprint: Fingerprint) -> Int {
        Int(fingerprint.low.multipliedFullWidth(by: UInt64(blockCount)).high) * Self.wordsPerBlock
    }
}
