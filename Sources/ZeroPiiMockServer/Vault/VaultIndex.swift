#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fingerprints of a vault file's values, in a hash table on disk beside it
/// (`<vault>.index`), with a bounded number of its pages in memory: the vault's memory
/// stays the same at ten values or ten million.
///
/// The table is open addressing with linear probing: a fingerprint's home slot is its
/// first 64 bits scaled to the number of slots (so slots are in fingerprint order, and
/// doubling the table maps slot `i` near slot `2i`: growing reads the old table and
/// writes the new one front to back), and it goes in the first empty slot from there.
/// When an insert would take the table past ``maximumLoadPercent`` full, a table twice
/// as large is built in `<vault>.index.growing` and renamed over the old one.
///
/// The log stays the source of truth. A record is written and synced to the log before
/// its fingerprints go into the index, and the index is written back lazily, so it can
/// lag the log; its header records the log position it covers. At start
/// (``open(beside:system:options:)``) an index that closed cleanly and covers a prefix of
/// the log has the records after that prefix replayed into it; one that is missing,
/// from another vault, not closed cleanly (a crash after pages were written back) or
/// damaged is rebuilt from the log. A clean index that covers more than the log holds
/// means the log lost acknowledged records: the vault refuses to start
/// (``VaultError/recordsLost``).
final class VaultIndex: FingerprintIndex {
    /// Sizes, which tests make small to exercise growth and eviction.
    struct Options: Sendable {
        /// Slot pages in a new table (255 slots each).
        var initialPageCount = 64
        /// Pages held in memory at most (4 KiB each): 64 MiB, the whole table of about
        /// 2.9 million values. Past that, nearly every new value costs a page read and a
        /// write-back, which took a tenth of a million-row run's CPU with 16 MiB.
        var cachedPageLimit = 16384

        static let standard = Options()
    }

    /// Why the index was rebuilt from the log when the vault opened.
    enum RebuildReason: Error, Equatable {
        case missing
        case unreadable
        case notAnIndex
        case wrongSize
        case otherVault
        case notClosedCleanly
        case damaged
        case wrongCount
    }

    /// How the index was found when the vault opened.
    enum Recovery: Equatable {
        /// It covered the whole log.
        case reused
        /// It covered a prefix of the log; this many records after it were replayed.
        case caughtUp(records: Int)
        case rebuilt(RebuildReason)
    }

    /// How full the table may get, in percent, before it doubles. Linear probing stays
    /// short (a few slots on average, nearly always within one page) below this.
    static let maximumLoadPercent = 70

    private let path: String
    private let system: any VaultFileSystem
    private var file: VaultIndexFile
    private let cache: VaultIndexPageCache
    private var pageCount: Int
    private(set) var count: Int
    /// The all-zero fingerprint cannot sit in a slot (zeros mark an empty one).
    private var holdsZeroFingerprint: Bool
    /// Set when a read or write of the index failed, or the index was closed: it may not
    /// match the log any more, so every later call fails, and the next start repairs it.
    private var failure: VaultError?

    private init(path: String, system: any VaultFileSystem, file: VaultIndexFile, cache: VaultIndexPageCache) {
        self.path = path
        self.system = system
        self.file = file
        self.cache = cache
        pageCount = file.header.pageCount
        count = file.header.count
        holdsZeroFingerprint = file.header.holdsZeroFingerprint
    }

    /// The index file's name for the vault file `vaultPath`.
    static func path(forVault vaultPath: String) -> String { vaultPath + ".index" }

    // MARK: Opening

    /// Opens the index of `log`, which has been opened but whose records have not been
    /// read yet, and brings it up to date with the log (reading the log's records, which
    /// also cuts off a torn tail).
    static func open(
        beside log: VaultFile, system: any VaultFileSystem, options: Options
    ) throws -> (index: VaultIndex, recovery: Recovery) {
        let path = path(forVault: log.path)
        unlink(path + ".growing")  // left by a crash while growing; the old table is still whole
        let cache = VaultIndexPageCache(limit: options.cachedPageLimit)
        let index: VaultIndex
        let recovery: Recovery
        switch openExisting(path: path, log: log, system: system, cache: cache) {
        case .success(let existing):
            // The log must still hold what the index covers (else `recover` throws
            // `recordsLost`, and both files are left as they are); the records after it
            // are replayed into the index.
            let covered = existing.file.header.covered
            var replayed = 0
            do {
                try log.recover(reaching: covered) { record in
                    guard record.offset >= covered.length else { return }
                    try existing.add(record)
                    replayed += 1
                }
            } catch {
                existing.abandon()
                throw error
            }
            index = existing
            recovery = replayed == 0 ? .reused : .caughtUp(records: replayed)
        case .failure(let reason):
            // The log is read through first, so that a log that cannot be used leaves the
            // index's name as it found it (a file, a link, nothing).
            try log.check()
            index = try build(path: path, log: log, system: system, cache: cache, options: options)
            do {
                try log.recover { try index.add($0) }
            } catch {
                // A log that cannot be used leaves no index of it behind.
                index.abandon()
                unlink(path)
                throw error
            }
            recovery = .rebuilt(reason)
        }
        try index.checkpoint(covering: log.position)
        return (index, recovery)
    }

    /// The index file at `path` if it can be used as it is: this vault's, closed cleanly,
    /// every page intact and as many fingerprints as its header says.
    private static func openExisting(
        path: String, log: VaultFile, system: any VaultFileSystem, cache: VaultIndexPageCache
    ) -> Result<VaultIndex, RebuildReason> {
        do {
            let file = try VaultIndexFile.open(path: path, system: system)
            guard file.header.vaultKeyChecksum == log.keyChecksum else { throw RebuildReason.otherVault }
            guard file.header.isClean else { throw RebuildReason.notClosedCleanly }
            let index = VaultIndex(path: path, system: system, file: file, cache: cache)
            var stored = 0
            try index.forEachStoredFingerprint { _ in stored += 1 }
            guard stored + (index.holdsZeroFingerprint ? 1 : 0) == index.count else { throw RebuildReason.wrongCount }
            return .success(index)
        } catch let reason as RebuildReason {
            return .failure(reason)
        } catch let error as VaultError where error == .damaged {
            return .failure(.damaged)
        } catch {
            return .failure(.unreadable)
        }
    }

    /// An empty index at `path`, large enough for every fingerprint the log could hold.
    private static func build(
        path: String, log: VaultFile, system: any VaultFileSystem, cache: VaultIndexPageCache, options: Options
    ) throws -> VaultIndex {
        let most = max(0, (log.size - VaultFile.headerSize) / VaultFile.fingerprintSize)
        let pages = pageCount(for: most, atLeast: options.initialPageCount)
        let header = VaultIndexHeader(vaultKeyChecksum: log.keyChecksum, pageCount: pages)
        let file = try VaultIndexFile.create(path: path, system: system, header: header)
        return VaultIndex(path: path, system: system, file: file, cache: cache)
    }

    /// The fewest pages, `minimum` doubled some number of times, that hold `count`
    /// fingerprints within the load bound.
    private static func pageCount(for count: Int, atLeast minimum: Int) -> Int {
        var pages = max(1, minimum)
        while count * 100 > pages * VaultIndexFile.slotsPerPage * maximumLoadPercent { pages *= 2 }
        return pages
    }

    /// Adds a record's fingerprints (those not already in).
    private func add(_ record: VaultFile.Record) throws {
        try reserveCapacity(adding: record.fingerprints.count, loggedUpTo: record.before)
        for fingerprint in record.fingerprints {
            if try !contains(fingerprint) { try insert(fingerprint) }
        }
    }

    // MARK: Lookups and inserts

    func contains(_ fingerprint: Fingerprint) throws -> Bool {
        if let failure { throw failure }
        if fingerprint.isZero { return holdsZeroFingerprint }
        return try guarded { try probe(fingerprint, inserting: false) }
    }

    func insert(_ fingerprint: Fingerprint) throws {
        if let failure { throw failure }
        if fingerprint.isZero {
            if !holdsZeroFingerprint { count += 1 }
            holdsZeroFingerprint = true
            return
        }
        if try !guarded({ try probe(fingerprint, inserting: true) }) { count += 1 }
    }

    func reserveCapacity(adding additional: Int, loggedUpTo position: VaultFile.Position) throws {
        if let failure { throw failure }
        let needed = Self.pageCount(for: count + additional, atLeast: pageCount)
        if needed > pageCount { try guarded { try grow(to: needed, covering: position) } }
    }

    /// Whether `fingerprint` is in the table; when it is not and `inserting` is set, it is
    /// put in the empty slot where the search ended.
    private func probe(_ fingerprint: Fingerprint, inserting: Bool) throws -> Bool {
        let slotsPerPage = VaultIndexFile.slotsPerPage
        let home = Int(fingerprint.high.multipliedFullWidth(by: UInt64(pageCount * slotsPerPage)).high)
        var page = home / slotsPerPage
        var slot = home % slotsPerPage
        while true {
            let (bytes, frame) = try cache.page(page, of: file)
            while slot < slotsPerPage {
                let stored = Fingerprint(bytesAt: bytes + slot * VaultIndexFile.slotSize)
                if stored.isZero {
                    if inserting {
                        fingerprint.store(at: bytes + slot * VaultIndexFile.slotSize)
                        cache.markChanged(frame: frame)
                    }
                    return false
                }
                if stored == fingerprint { return true }
                slot += 1
            }
            page = page + 1 == pageCount ? 0 : page + 1
            slot = 0
        }
    }

    // MARK: Growing, checkpoints and closing

    /// Rebuilds the table with `newPageCount` pages in a new file, which replaces the old
    /// one once it is complete and durable; `position` is the log position it covers.
    private func grow(to newPageCount: Int, covering position: VaultFile.Position) throws {
        try cache.writeBack(to: file)
        cache.discard()
        let header = VaultIndexHeader(vaultKeyChecksum: file.header.vaultKeyChecksum, pageCount: newPageCount)
        let growingPath = path + ".growing"
        var built: VaultIndex?
        do {
            let bigger = VaultIndex(
                path: path, system: system, file: try VaultIndexFile.create(path: growingPath, system: system, header: header), cache: cache)
            built = bigger
            try forEachStoredFingerprint { try bigger.insert($0) }
            bigger.holdsZeroFingerprint = holdsZeroFingerprint
            bigger.count = count
            try bigger.checkpoint(covering: position)
            try bigger.file.move(to: path)
        } catch {
            // A half-built table is of no use (the next start rebuilds from the log), and
            // on a full disk it holds the space the vault needs.
            built?.abandon()
            unlink(growingPath)
            throw error
        }
        let bigger = built!
        file.close()
        file = bigger.file
        pageCount = newPageCount
    }

    /// Writes every changed page back and records, durably, that the index holds the log
    /// up to `position`.
    func checkpoint(covering position: VaultFile.Position) throws {
        if let failure { throw failure }
        try guarded {
            try cache.writeBack(to: file)
            var header = file.header
            header.count = count
            header.holdsZeroFingerprint = holdsZeroFingerprint
            header.covered = position
            try file.checkpoint(header)
        }
    }

    /// Checkpoints (when that fails, the next start repairs the index) and closes.
    func close(covering position: VaultFile.Position) {
        try? checkpoint(covering: position)
        abandon()
    }

    /// Closes without writing anything back: what a crash leaves on disk.
    func abandon() {
        cache.discard()
        file.close()
        failure = failure ?? VaultError.cannotWrite(path, errno: EBADF)
    }

    /// Runs `body`; if it fails, the index is marked failed (see ``failure``).
    private func guarded<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            let failed = error as? VaultError ?? VaultError.cannotWrite(path, errno: EIO)
            failure = failed
            throw failed
        }
    }

    /// Reads the table from disk front to back, bypassing the cache (whose changed pages
    /// must have been written back), and hands over every fingerprint in a slot.
    private func forEachStoredFingerprint(_ body: (Fingerprint) throws -> Void) throws {
        let pagesPerRead = 64
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: pagesPerRead * VaultIndexFile.pageSize, alignment: VaultIndexFile.pageSize)
        defer { buffer.deallocate() }
        var first = 0
        while first < pageCount {
            let pages = min(pagesPerRead, pageCount - first)
            try file.readPages(from: first, count: pages, into: buffer)
            for page in 0..<pages {
                for slot in 0..<VaultIndexFile.slotsPerPage {
                    let stored = Fingerprint(bytesAt: buffer + page * VaultIndexFile.pageSize + slot * VaultIndexFile.slotSize)
                    if !stored.isZero { try body(stored) }
                }
            }
            first += pages
        }
    }

    // MARK: Figures for tests and reports

    /// Pages held in memory now, and at most.
    var heldPageCount: Int { cache.heldPageCount }
    var cachedPageLimit: Int { cache.limit }
    /// Slot pages in the table.
    var tablePageCount: Int { pageCount }
    /// The index file's size in bytes.
    var fileSize: Int { file.size }
}
