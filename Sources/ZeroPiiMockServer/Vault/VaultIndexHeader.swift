/// The first page of the index file: what the index holds and which part of the log it
/// covers, so that at start an index that is missing, stale, from another vault or left
/// half-written is told from one that can be used.
///
/// Layout (big-endian): `ZPINDEX` and a format version (`1`); the CRC-32 of the vault's
/// key as the log's header has it; flags (bit 0: closed cleanly, bit 1: holds the
/// all-zero fingerprint); the number of slot pages; the number of fingerprints; the log
/// position covered (its length and the CRC-32 of the record that ends there); the log
/// position reached (the same); a CRC-32 of all of these. The rest of the page is zeros.
struct VaultIndexHeader: Equatable {
    static let magic = Array("ZPINDEX".utf8)
    static let version = UInt8(ascii: "2")
    private static let encodedSize = 60

    /// The CRC-32 of the vault's key, from the log's header.
    var vaultKeyChecksum: UInt32
    /// Whether every slot page on disk is as the header describes it. Cleared, and made
    /// durable, before the first page is written after a checkpoint; set by a checkpoint.
    var isClean: Bool
    var pageCount: Int
    var count: Int
    var holdsZeroFingerprint: Bool
    /// Every record up to here is in the index; records after it are replayed at start.
    var covered: VaultFile.Position
    /// How far the log reached when this header was written (at a checkpoint, or when the
    /// vault closed with fingerprints still pending): records up to here were
    /// acknowledged, so a log that no longer reaches it has lost some.
    var logReached: VaultFile.Position

    init(vaultKeyChecksum: UInt32, pageCount: Int) {
        self.vaultKeyChecksum = vaultKeyChecksum
        isClean = false
        self.pageCount = pageCount
        count = 0
        holdsZeroFingerprint = false
        covered = .empty
        logReached = .empty
    }

    /// Reads a header; nil when the bytes are not an index header of this version.
    init?(decoding page: UnsafeRawBufferPointer) {
        guard page.count >= Self.encodedSize, Array(page[0..<8]) == Self.magic + [Self.version],
            Self.load32(page, 56) == CRC32.checksum(page[0..<56])
        else { return nil }
        vaultKeyChecksum = Self.load32(page, 8)
        let flags = Self.load32(page, 12)
        isClean = flags & 1 != 0
        holdsZeroFingerprint = flags & 2 != 0
        guard let pageCount = Int(exactly: Self.load64(page, 16)), let count = Int(exactly: Self.load64(page, 24)),
            let length = Int(exactly: Self.load64(page, 32)), let reached = Int(exactly: Self.load64(page, 44))
        else { return nil }
        self.pageCount = pageCount
        self.count = count
        covered = VaultFile.Position(length: length, lastRecordChecksum: Self.load32(page, 40))
        logReached = VaultFile.Position(length: reached, lastRecordChecksum: Self.load32(page, 52))
    }

    /// The header as the first bytes of the index file.
    func encoded() -> [UInt8] {
        var bytes = Self.magic + [Self.version]
        func append<Value: FixedWidthInteger>(_ value: Value) {
            withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
        }
        append(vaultKeyChecksum)
        append(UInt32(isClean ? 1 : 0) | UInt32(holdsZeroFingerprint ? 2 : 0))
        append(UInt64(pageCount))
        append(UInt64(count))
        append(UInt64(covered.length))
        append(covered.lastRecordChecksum)
        append(UInt64(logReached.length))
        append(logReached.lastRecordChecksum)
        append(CRC32.checksum(bytes))
        return bytes
    }

    private static func load32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    private static func load64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
