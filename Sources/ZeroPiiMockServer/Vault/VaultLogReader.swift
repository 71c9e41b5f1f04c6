#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the vault's log from its start, one whole record at a time, holding at most
/// one read chunk and one record in memory, so opening a vault of any size takes the
/// same memory.
///
/// It applies the rules of ``VaultFile`` for the end of the log. A crash while a record
/// is written leaves a prefix of it, perhaps followed by zeros (blocks the file system
/// allocated but never filled); anything else is damage, which stops the vault.
///
/// - Format 5 on, where a record's header (its count) has a CRC-32 of its own and the
///   record's CRC-32 is chained to the one before: the tail is torn when the fewer than
///   8 bytes left are zeros or the start of a header (a count of 1 to 1,000, then the
///   start of its checksum), when a header that checks claims more bytes than the file
///   has and no header that checks starts where a shorter record would have ended, or
///   when the bytes from the checksum that fails (the header's, after a count of at most
///   1,000, or the record's at its end) to the end of the file are all zeros. A bit
///   flipped anywhere in a record, the last included, leaves non-zero bytes there, so it
///   is damage; so is a record removed, repeated or moved, whose chained checksum no
///   longer checks. Zeros a crash leaves
///   start at a sector boundary, and a checksum sits at a multiple of 4 bytes, so they
///   never start inside one.
/// - Formats 2 to 4, whose count has no checksum: a record of at most
///   ``VaultFile/largestWrittenRecord`` fingerprints that runs past the end of the file,
///   or that reaches it exactly and does not check, is the torn tail, and so are zeros to
///   the end; a bad record with more bytes after it is damage, and so is a record that
///   claims more fingerprints than one write makes and does not fit in the file. A
///   damaged count that stays within one write's and runs past the end cannot be told
///   from a torn tail there.
struct VaultLogReader {
    private static let chunkSize = 1 << 20
    private static let largestRecordCount = 1_000_000

    private let descriptor: Int32
    private let path: String
    private let headersAreChecked: Bool
    private let system: any VaultFileSystem
    /// The file's size when reading began; the vault's lock keeps it from changing.
    private let fileSize: Int
    private var buffer: [UInt8] = []
    /// Where in `buffer` the next unread byte is.
    private var start = 0
    /// The file offset of `buffer[start]`.
    private var offset = 0
    /// Where the last whole record read so far ends (after the header, before any).
    private(set) var endOfRecords = 0
    /// The checksum of that record (0 before any).
    private var lastChecksum: UInt32 = 0
    /// What format 5's next record checksum is chained to: the last record's checksum, or
    /// the header's before any.
    private var chainedTo: UInt32 = 0
    /// How far into the file `buffer` reaches.
    private var readUpTo = 0

    /// A reader of the log in `descriptor`, whose records are laid out as `format`'s.
    init(descriptor: Int32, path: String, system: any VaultFileSystem, format: VaultFormat) throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw VaultError.cannotRead(path, errno: errno) }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw VaultError.cannotRead(path, errno: errno) }
        self.descriptor = descriptor
        self.path = path
        self.system = system
        headersAreChecked = format.recordHeadersAreChecked
        fileSize = Int(status.st_size)
    }

    /// The first `count` bytes of the file, or all of them when it is shorter.
    mutating func readHeader(_ count: Int) throws -> [UInt8] {
        _ = try fill(count)
        let header = Array(buffer[start..<min(buffer.count, start + count)])
        if header.count >= VaultFile.headerSize { chainedTo = load(at: start + VaultFile.headerSize - 4) }
        consume(header.count)
        endOfRecords = offset
        return header
    }

    /// The next whole record, or nil where the whole records end (at ``endOfRecords``).
    mutating func nextRecord() throws -> VaultFile.Record? {
        headersAreChecked ? try nextCheckedRecord() : try nextUncheckedRecord()
    }

    private mutating func nextCheckedRecord() throws -> VaultFile.Record? {
        let recordOffset = offset
        guard try fill(8) else {
            if buffer[start...].allSatisfy({ $0 == 0 }) || Self.mayBeginHeader(buffer[start...]) { return nil }
            throw VaultError.damaged(path, offset: recordOffset)
        }
        let count = Int(load(at: start))
        guard isRecordHeader(at: start) else {
            // A header cut inside its checksum: a count a write makes (or zeros), then zeros.
            if count <= VaultFile.largestWrittenRecord, try restIsZeros(after: 4) { return nil }
            throw VaultError.damaged(path, offset: recordOffset)
        }
        let size = 8 + count * VaultFile.fingerprintSize + 4
        guard try fill(size) else {
            // The file ends inside the record: a torn tail, unless a whole header follows
            // where a record of fewer fingerprints would have ended (its count was changed,
            // and its checksum with it).
            if !headerFollows(upTo: count) { return nil }
            throw VaultError.damaged(path, offset: recordOffset)
        }
        let checksum = load(at: start + size - 4)
        guard checksum == CRC32.checksum(buffer[start..<(start + size - 4)], after: chainedTo) else {
            if try restIsZeros(after: size - 4) { return nil }
            throw VaultError.damaged(path, offset: recordOffset)
        }
        chainedTo = checksum
        return take(size: size, count: count, fingerprintsAt: 8, checksum: checksum)
    }

    /// Whether the 8 bytes at `index` of the buffer are a format 5 record's header: a
    /// count one write makes (1 to ``VaultFile/largestWrittenRecord``) and its CRC-32.
    private func isRecordHeader(at index: Int) -> Bool {
        let count = Int(load(at: index))
        return (1...VaultFile.largestWrittenRecord).contains(count)
            && buffer[index..<(index + 8)].elementsEqual(VaultFile.checkedRecordHeader(count: count))
    }

    /// Whether the bytes left, fewer than a header's 8, can be the start of one: a count a
    /// write makes, then the start of that count's checksum.
    private static func mayBeginHeader(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 4 else {
            // The first bytes of a big-endian count of at most 1,000 (0x000003E8).
            let first = Array(bytes)
            return first.first.map { $0 == 0 } != false && (first.count < 2 || first[1] == 0) && (first.count < 3 || first[2] <= 3)
        }
        let count = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        return (1...VaultFile.largestWrittenRecord).contains(count)
            && VaultFile.checkedRecordHeader(count: count).starts(with: bytes)
    }

    /// Whether, in the bytes left (all in the buffer), a header that checks starts where
    /// a record of fewer than `count` fingerprints would end.
    private func headerFollows(upTo count: Int) -> Bool {
        let left = buffer.count - start
        for fingerprints in 1..<max(1, count) {
            let next = 8 + fingerprints * VaultFile.fingerprintSize + 4
            guard next + 8 <= left else { return false }
            if isRecordHeader(at: start + next) { return true }
        }
        return false
    }

    private mutating func nextUncheckedRecord() throws -> VaultFile.Record? {
        guard try fill(4) else { return nil }
        let recordOffset = offset
        let count = Int(load(at: start))
        guard count > 0, count <= Self.largestRecordCount else {
            if try restIsZeros() { return nil }
            throw VaultError.damaged(path, offset: recordOffset)
        }
        let size = 4 + count * VaultFile.fingerprintSize + 4
        let mayBeTorn = count <= VaultFile.largestWrittenRecord
        guard try fill(size) else {
            if mayBeTorn { return nil }
            throw VaultError.damaged(path, offset: offset)
        }
        let checksum = load(at: start + size - 4)
        guard checksum == CRC32.checksum(buffer[start..<(start + size - 4)]) else {
            if offset + size == fileSize && mayBeTorn { return nil }
            throw VaultError.damaged(path, offset: offset)
        }
        return take(size: size, count: count, fingerprintsAt: 4, checksum: checksum)
    }

    /// The record of `size` bytes at the reading point, which has checked, and moves past it.
    private mutating func take(size: Int, count: Int, fingerprintsAt first: Int, checksum: UInt32) -> VaultFile.Record {
        let start = self.start
        let fingerprints = buffer.withUnsafeBytes { raw in
            (0..<count).map { Fingerprint(bytesAt: raw.baseAddress! + start + first + $0 * VaultFile.fingerprintSize) }
        }
        let record = VaultFile.Record(
            before: VaultFile.Position(length: offset, lastRecordChecksum: lastChecksum), end: offset + size, checksum: checksum,
            fingerprints: fingerprints)
        consume(size)
        endOfRecords = offset
        lastChecksum = checksum
        return record
    }

    /// Makes `count` unread bytes available; false when the file ends first.
    private mutating func fill(_ count: Int) throws -> Bool {
        while buffer.count - start < count {
            guard readUpTo < fileSize else { return false }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            let wanted = min(max(Self.chunkSize, count - buffer.count), fileSize - readUpTo)
            let oldCount = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: wanted))
            let (descriptor, path, system) = (self.descriptor, self.path, self.system)
            let got = try buffer.withUnsafeMutableBytes { raw in
                try Self.readFully(descriptor, path: path, system: system, into: raw.baseAddress! + oldCount, count: wanted)
            }
            buffer.removeLast(wanted - got)
            readUpTo += got
            // The file ended sooner than its size said: treat it as the end.
            if got < wanted { return buffer.count - start >= count }
        }
        return true
    }

    private static func readFully(
        _ descriptor: Int32, path: String, system: any VaultFileSystem, into pointer: UnsafeMutableRawPointer, count: Int
    ) throws -> Int {
        var total = 0
        while total < count {
            let got = system.read(descriptor, pointer + total, count - total)
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw VaultError.cannotRead(path, errno: errno) }
            if got == 0 { break }
            total += got
        }
        return total
    }

    private mutating func consume(_ count: Int) {
        start += count
        offset += count
    }

    /// Whether every byte from `skipped` bytes past the reading point (which are
    /// available) to the end of the file is zero. Moves the reading point: the caller
    /// reads no further.
    private mutating func restIsZeros(after skipped: Int = 0) throws -> Bool {
        consume(skipped)
        while true {
            guard buffer[start...].allSatisfy({ $0 == 0 }) else { return false }
            let remaining = buffer.count - start
            consume(remaining)
            guard try fill(1) else { return true }
        }
    }

    private func load(at index: Int) -> UInt32 {
        UInt32(buffer[index]) << 24 | UInt32(buffer[index + 1]) << 16 | UInt32(buffer[index + 2]) << 8 | UInt32(buffer[index + 3])
    }
}
