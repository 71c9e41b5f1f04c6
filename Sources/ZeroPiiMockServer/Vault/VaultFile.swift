import Foundation
import ZeroPiiCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The vault's data file: an append-only log that makes new mappings durable, held by
/// one process at a time.
///
/// Layout: a header (`ZPVAULT` and a format version, ``VaultFormat``: `5` for a new
/// vault, `2` to `4` for one created before; the 32-byte token key; a CRC-32 of the
/// header before it, or of the key alone in format 2), then one record per request that
/// created tokens (more for a request of more than ``largestWrittenRecord`` values): a
/// 4-byte count, from format 5 on a CRC-32 of that count, that many 16-byte value
/// fingerprints, and a CRC-32 of the record before it (from format 5 on, of the previous
/// record's CRC-32, or the header's for the first record, followed by the record, so
/// that a record removed, repeated or moved does not check). No value is stored in
/// readable form. All numbers are big-endian.
///
/// - The file is created whole: header written to a temporary file, synced, then linked
///   to its name, which fails if another process got there first (then its file is
///   used). So two first runs agree on one key.
/// - An exclusive `flock` on the open file is held for the vault's life.
/// - A record is written and synced before the request that brought it is answered. If
///   the write or the sync fails, the file is cut back to its last whole record and the
///   request fails; if even that fails, every later write fails too, so nothing is ever
///   appended after a torn record.
/// - At start, a record cut short at the end of the file (a crash while writing it,
///   before it was acknowledged) is dropped; a bad record anywhere else, or a read
///   error, stops the vault with a message that names the record's offset and leaves
///   the file as it is (``VaultLogReader`` says how the two are told apart). The file is
///   read in bounded memory (``VaultLogReader``), whatever its size.
/// - The log is the source of truth for which values the vault holds; ``VaultIndex``
///   beside it is how they are looked up, and is repaired or rebuilt from the log.
final class VaultFile: @unchecked Sendable {
    // Sendable: `position`, `broken` and `droppedBytes` are only changed by `recover` and
    // `append`, which TokenVault calls while it opens or under its lock; the rest is
    // immutable.
    static let magic = Array("ZPVAULT".utf8)
    static let headerSize = 8 + 32 + 4
    static let fingerprintSize = 16
    /// The most fingerprints one record holds when this code writes it: the most values
    /// one request brings (Docs/Protocol.md section 7). A record that claims more and runs
    /// past the end of the file is therefore damage, not the torn tail of a write.
    static let largestWrittenRecord = 1000

    /// A point in the log: where its whole records end, and the checksum of the record
    /// that ends there (0 when there is none). The index records the position it covers,
    /// so that at start a stale index is told from a current one.
    struct Position: Hashable, Sendable {
        var length: Int
        var lastRecordChecksum: UInt32

        static let empty = Position(length: VaultFile.headerSize, lastRecordChecksum: 0)
    }

    /// One whole record as read back from the log.
    struct Record {
        /// The log up to the start of this record.
        let before: Position
        let end: Int
        let checksum: UInt32
        let fingerprints: [Fingerprint]

        var offset: Int { before.length }
    }

    private let descriptor: Int32
    let path: String
    private let system: any VaultFileSystem
    let key: [UInt8]
    /// The token function the vault was created with, from the header.
    let format: VaultFormat
    /// The header's CRC-32 of the key: what ties an index file to this vault.
    let keyChecksum: UInt32
    /// The end of the last whole record.
    private(set) var position = Position.empty
    /// Set when a failed write could not be undone: the file may end in a torn record.
    private var broken = false
    /// Whether opening made the file (a new vault, with a new key).
    private(set) var created = false
    /// Bytes of a torn last record that ``recover(visiting:)`` dropped.
    private(set) var droppedBytes = 0
    /// The permission bits an existing file had when other users could read or change
    /// it; ``open(path:system:whenLocked:)`` then made it owner-only (0600).
    private(set) var tightenedFromMode: UInt16?

    /// Opens (or creates) the file, takes its lock and reads its header; the records are
    /// read by ``recover(visiting:)``, which must come next.
    ///
    /// - Parameter whenLocked: nil fails at once with ``VaultError/locked`` when another
    ///   process holds the file; otherwise it is called once and the lock is waited for.
    static func open(
        path: String, system: any VaultFileSystem = SystemVaultFileSystem(), whenLocked: (@Sendable () -> Void)? = nil
    ) throws -> VaultFile {
        let (descriptor, created) = try openOrCreate(path)
        do {
            try lock(descriptor, path: path, whenLocked: whenLocked)
            // Only the header is read here, which every format lays out alike.
            var reader = try VaultLogReader(descriptor: descriptor, path: path, system: system, format: .current)
            let header = try reader.readHeader(headerSize)
            let (key, format) = try parseHeader(header, path: path)
            let file = VaultFile(
                descriptor: descriptor, path: path, system: system, key: key, format: format, keyChecksum: load(header, at: 40))
            file.tightenedFromMode = try makeOwnerOnly(descriptor, path: path)
            file.created = created
            return file
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// The file holds the token key: anyone who can read it can compute every token. A
    /// file this code creates is 0600; one copied in, or made by an older version with
    /// a looser umask, is made owner-only here, and the old bits are returned so the
    /// command can say so. Nil when it was owner-only already.
    private static func makeOwnerOnly(_ descriptor: Int32, path: String) throws -> UInt16? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw VaultError.cannotRead(path, errno: errno) }
        let permissions = UInt16(truncatingIfNeeded: status.st_mode) & 0o7777
        guard permissions & 0o077 != 0 else { return nil }
        guard fchmod(descriptor, 0o600) == 0 else { throw VaultError.cannotWrite(path, errno: errno) }
        return permissions
    }

    private init(descriptor: Int32, path: String, system: any VaultFileSystem, key: [UInt8], format: VaultFormat, keyChecksum: UInt32) {
        self.descriptor = descriptor
        self.path = path
        self.system = system
        self.key = key
        self.format = format
        self.keyChecksum = keyChecksum
    }

    deinit { close(descriptor) }

    /// Reads every whole record in order, handing each to `visit`, then cuts a torn tail
    /// off the file (recorded in ``droppedBytes``) and sets ``position``.
    ///
    /// - Parameter covered: a point the log reached when the vault last closed (its
    ///   index's checkpoint). Records are only ever acknowledged once synced, and a torn
    ///   tail is never one of them, so a log that no longer reaches that point, or reaches
    ///   it with another record, has lost records: that throws ``VaultError/recordsLost``
    ///   before anything is cut.
    func recover(reaching covered: Position = .empty, visiting visit: (Record) throws -> Void) throws {
        var reader = try VaultLogReader(descriptor: descriptor, path: path, system: system, format: format)
        _ = try reader.readHeader(Self.headerSize)
        var last = Position.empty
        while let record = try reader.nextRecord() {
            if record.end == covered.length && record.checksum != covered.lastRecordChecksum
                || record.offset < covered.length && record.end > covered.length
            {
                throw VaultError.recordsLost(path, detail: "the record that ends at byte \(record.end) is not the one its index saw")
            }
            try visit(record)
            last = Position(length: record.end, lastRecordChecksum: record.checksum)
        }
        if last.length < covered.length {
            throw VaultError.recordsLost(path, detail: "its records end at byte \(last.length); its index saw them reach \(covered.length)")
        }
        let fileSize = Int(lseek(descriptor, 0, SEEK_END))
        if fileSize > last.length {
            guard system.truncate(descriptor, last.length) == 0, system.synchronize(descriptor) == 0 else {
                throw VaultError.cannotWrite(path, errno: errno)
            }
        }
        droppedBytes += max(0, fileSize - last.length)
        position = last
    }

    /// Reads every record through, to learn before anything else is written whether the
    /// log can be used: throws what ``recover(reaching:visiting:)`` would, and changes
    /// nothing.
    func check() throws {
        var reader = try VaultLogReader(descriptor: descriptor, path: path, system: system, format: format)
        _ = try reader.readHeader(Self.headerSize)
        while try reader.nextRecord() != nil {}
    }

    /// The file's size now.
    var size: Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    /// Reads every whole record again, in order (after ``recover(visiting:)``).
    func forEachRecord(_ visit: (Record) throws -> Void) throws {
        var reader = try VaultLogReader(descriptor: descriptor, path: path, system: system, format: format)
        _ = try reader.readHeader(Self.headerSize)
        while let record = try reader.nextRecord() { try visit(record) }
    }

    /// Appends new fingerprints and waits until they are on disk: one record per
    /// ``largestWrittenRecord`` fingerprints (one for any request the server takes), all
    /// in one write.
    func append(_ fingerprints: [Fingerprint]) throws {
        guard !fingerprints.isEmpty else { return }
        guard !broken else { throw VaultError.cannotWrite(path, errno: EIO) }
        var record = [UInt8]()
        record.reserveCapacity(12 * (fingerprints.count / Self.largestWrittenRecord + 1) + fingerprints.count * Self.fingerprintSize)
        var checksum: UInt32 = 0
        // Format 5 chains each record's checksum to the one before it (the header's for
        // the first record).
        var previous = position.length == Self.headerSize ? keyChecksum : position.lastRecordChecksum
        var first = 0
        while first < fingerprints.count {
            let part = fingerprints[first..<min(first + Self.largestWrittenRecord, fingerprints.count)]
            let start = record.count
            if format.recordHeadersAreChecked {
                record.append(contentsOf: Self.checkedRecordHeader(count: part.count))
            } else {
                withUnsafeBytes(of: UInt32(part.count).bigEndian) { record.append(contentsOf: $0) }
            }
            for fingerprint in part { fingerprint.append(to: &record) }
            checksum = format.recordHeadersAreChecked ? CRC32.checksum(record[start...], after: previous) : CRC32.checksum(record[start...])
            previous = checksum
            withUnsafeBytes(of: checksum.bigEndian) { record.append(contentsOf: $0) }
            first += part.count
        }
        var failure: Int32 = 0
        record.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = system.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    failure = written == 0 ? EIO : errno
                    return
                }
                offset += written
            }
            if system.synchronize(descriptor) != 0 { failure = errno }
        }
        guard failure == 0 else {
            // Back to the last whole record, so a later record never follows a torn one.
            if system.truncate(descriptor, position.length) != 0 || system.synchronize(descriptor) != 0 { broken = true }
            throw VaultError.cannotWrite(path, errno: failure)
        }
        position = Position(length: position.length + record.count, lastRecordChecksum: checksum)
    }

    // MARK: Opening

    static func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        #if canImport(Glibc)
        return Glibc.open(path, flags | O_CLOEXEC, mode)
        #else
        return Darwin.open(path, flags | O_CLOEXEC, mode)
        #endif
    }

    /// A format 5 record's first 8 bytes for `count` fingerprints: the count and its
    /// CRC-32, both big-endian.
    static func checkedRecordHeader(count: Int) -> [UInt8] {
        var header: [UInt8] = []
        withUnsafeBytes(of: UInt32(count).bigEndian) { header.append(contentsOf: $0) }
        withUnsafeBytes(of: CRC32.checksum(header).bigEndian) { header.append(contentsOf: $0) }
        return header
    }

    /// The longest name a vault file may have, in bytes: its index's names add up to 14
    /// (`.index.growing`), and a file system allows 255.
    static let longestName = 255 - ".index.growing".utf8.count

    /// Opens the file, creating it whole first when it does not exist, and says whether
    /// this call created it.
    private static func openOrCreate(_ path: String) throws -> (descriptor: Int32, created: Bool) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.utf8.count <= longestName else { throw VaultError.nameTooLong(path, limit: longestName) }
        var created = false
        while true {
            let descriptor = systemOpen(path, O_RDWR | O_APPEND)
            if descriptor >= 0 { return (descriptor, created) }
            guard errno == ENOENT else { throw VaultError.cannotOpen(path, errno: errno) }
            // An index without its vault: the vault was moved or deleted, and a new one
            // would give every value another token. (A process that makes the vault links
            // it before it makes the index, so the vault is there when its index is.)
            if access(VaultIndex.path(forVault: path), F_OK) == 0 && access(path, F_OK) != 0 {
                throw VaultError.missingBesideIndex(path, index: VaultIndex.path(forVault: path))
            }
            created = try create(path)
        }
    }

    /// Writes a new vault's header to a temporary file beside `path`, syncs it, and links
    /// it to `path`; `link` fails if `path` exists, so a vault another process created in
    /// the meantime is kept and used.
    /// - Returns: whether this call made the file (false when another process linked its
    ///   own first).
    private static func create(_ path: String) throws -> Bool {
        // A short name of its own, so that a vault name of any allowed length fits.
        let folder = FileSystemPath.folder(of: path)
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".zeropii-vault-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = systemOpen(temporary, O_RDWR | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw VaultError.cannotOpen(path, errno: errno) }
        defer { unlink(temporary) }
        var key = [UInt8](repeating: 0, count: 32)
        key.withUnsafeMutableBytes { SecureRandom.fill($0) }
        var header = magic + [VaultFormat.current.rawValue] + key
        withUnsafeBytes(of: CRC32.checksum(header[VaultFormat.current.checksummedHeaderBytes]).bigEndian) { header.append(contentsOf: $0) }
        let system = SystemVaultFileSystem()
        let written = header.withUnsafeBytes { system.write(descriptor, $0.baseAddress!, $0.count) }
        let synced = written == header.count && system.synchronize(descriptor) == 0
        let failure = errno
        close(descriptor)
        guard synced else { throw VaultError.cannotWrite(path, errno: written < 0 ? failure : EIO) }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw VaultError.cannotOpen(path, errno: errno)
        }
        syncDirectory(of: path)
        return true
    }

    /// How often, and how far apart, a held lock is tried again before the file is taken
    /// for another process's: 250 ms in all.
    private static let lockRetries = 50
    private static let lockRetryMicroseconds: UInt32 = 5_000

    private static func lock(_ descriptor: Int32, path: String, whenLocked: (@Sendable () -> Void)?) throws {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
        guard errno == EWOULDBLOCK || errno == EAGAIN else { throw VaultError.cannotOpen(path, errno: errno) }
        // A child process this one starts holds a copy of every descriptor until it
        // executes its program (O_CLOEXEC closes them only then), and with it the lock of
        // a vault this process has just closed. So look again for a moment before taking
        // the file for another process's.
        for _ in 0..<lockRetries {
            usleep(lockRetryMicroseconds)
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
            guard errno == EWOULDBLOCK || errno == EAGAIN else { throw VaultError.cannotOpen(path, errno: errno) }
        }
        guard let whenLocked else { throw VaultError.locked(path) }
        whenLocked()
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw VaultError.cannotOpen(path, errno: errno) }
        }
    }

    private static func parseHeader(_ contents: [UInt8], path: String) throws -> (key: [UInt8], format: VaultFormat) {
        guard contents.count >= magic.count + 1, Array(contents[0..<magic.count]) == magic else {
            throw VaultError.notAVaultFile(path)
        }
        let fileVersion = contents[magic.count]
        guard let format = VaultFormat(rawValue: fileVersion) else {
            let version = String(decoding: [fileVersion], as: UTF8.self)
            let known = VaultFormat.allCases.map(\.rawValue)
            switch fileVersion {
            case UInt8(ascii: "1")..<known.min()!: throw VaultError.earlierVersion(path, version: version)
            case (known.max()! + 1)...UInt8(ascii: "9"): throw VaultError.laterVersion(path, version: version)
            default: throw VaultError.notAVaultFile(path)
            }
        }
        guard contents.count >= headerSize, load(contents, at: 40) == CRC32.checksum(contents[format.checksummedHeaderBytes]) else {
            throw VaultError.notAVaultFile(path)
        }
        return (Array(contents[8..<40]), format)
    }

    private static func load(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// Makes the new file's directory entry durable too.
    static func syncDirectory(of path: String) {
        let directory = FileSystemPath.folder(of: path)
        let descriptor = systemOpen(directory.isEmpty ? "." : directory, O_RDONLY)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}
