#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fingerprints of a vault file's values, in a hash table on disk beside it
/// (`<vault>.index`), with a bounded part of it in memory: the vault's memory stays the
/// same at ten values or ten million, but for a filter of about two bytes a value.
///
/// The table is open addressing with linear probing: a fingerprint's home slot is its
/// first 64 bits scaled to the number of slots (so slots are in fingerprint order, and
/// doubling the table maps slot `i` near slot `2i`), and it goes in the first empty slot
/// from there. When an insert would take the table past ``maximumLoadPercent`` full, a
/// table twice as large is built in `<vault>.index.growing` and renamed over the old one.
///
/// Three things keep the cost of a new value flat as the table outgrows memory:
/// - A lookup asks ``FingerprintFilter`` first, which says no, without reading a page,
///   for nearly every value the vault has not seen.
/// - New fingerprints wait in memory (``PendingFingerprints``, where lookups see them)
///   and are merged into the table in one pass from its first page to its last
///   (``VaultIndexTableWriter``) when ``Options/pendingLimit`` of them have come, or the
///   table grows (growing merges them into the new table as it is written). A page is
///   then read and written once a merge, for all the values that land in it, not once a
///   value.
/// - The page cache (``VaultIndexPageCache``) only holds pages for lookups of values the
///   filter may have (repeats), and is never written back.
///
/// The log stays the source of truth. A record is written and synced to the log before
/// its fingerprints go into the index. The file is written only by a merge or growth,
/// each followed by a checkpoint, which records durably the log position the table then
/// holds; fingerprints still pending when the vault closes are not merged (the log has
/// them). At start (``open(beside:system:options:)``) an index that was checkpointed and
/// covers a prefix of the log has the records after that prefix replayed into it, which
/// is how pending fingerprints come back after a close or a crash; one that is missing,
/// from another vault, not closed cleanly (a crash in the middle of a merge or growth)
/// or damaged is rebuilt from the log. A clean index that covers more than the log holds
/// means the log lost acknowledged records: the vault refuses to start
/// (``VaultError/recordsLost``).
final class VaultIndex: FingerprintIndex {
    /// Sizes, which tests make small to exercise growth, merges and eviction.
    struct Options: Sendable {
        /// Slot pages in a new table (255 slots each).
        var initialPageCount = 64
        /// Pages held in memory at most (4 KiB each), for lookups of values the vault
        /// may have: 4 MiB. New values seldom read a page (the filter), so the cache
        /// serves repeated values, whose pages the system's file cache holds too.
        var cachedPageLimit = 1024
        /// New fingerprints held in memory before they are merged into the table (16
        /// bytes each): 64 MiB. A merge writes nearly every page of a large table, so the
        /// bytes written for each new value are the table's size over this; at 20 million
        /// values (a 512 MiB table) that is 128 bytes a value.
        var pendingLimit = 4_194_304

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
    private var cache: VaultIndexPageCache
    private var filter: FingerprintFilter
    private var pending: PendingFingerprints
    private var pageCount: Int
    /// Fingerprints in the table's slots.
    private var storedCount: Int
    /// The all-zero fingerprint cannot sit in a slot (zeros mark an empty one); it is not
    /// pending either, but recorded here at once.
    private var holdsZeroFingerprint: Bool
    /// Set when a read or write of the index failed, or the index was closed: it may not
    /// match the log any more, so every later call fails, and the next start repairs it.
    private var failure: VaultError?
    /// ``count`` as it was when the index was closed, which let go of its memory.
    private var countWhenClosed: Int?

    private init(path: String, system: any VaultFileSystem, file: VaultIndexFile, cache: VaultIndexPageCache, options: Options) {
        self.path = path
        self.system = system
        self.file = file
        self.cache = cache
        pageCount = file.header.pageCount
        holdsZeroFingerprint = file.header.holdsZeroFingerprint
        storedCount = file.header.count - (holdsZeroFingerprint ? 1 : 0)
        filter = FingerprintFilter(pageCount: pageCount)
        pending = PendingFingerprints(limit: options.pendingLimit)
    }

    /// How many distinct fingerprints the index holds, pending ones included.
    var count: Int { countWhenClosed ?? storedCount + pending.count + (holdsZeroFingerprint ? 1 : 0) }

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
        switch openExisting(path: path, log: log, system: system, cache: cache, options: options) {
        case .success(let existing):
            // The log must still reach where it did when the index last wrote its header
            // (else `recover` throws `recordsLost`, and both files are left as they are);
            // the records after what the table covers are replayed into the index.
            let covered = existing.file.header.covered
            let reached = existing.file.header.logReached
            var replayed = 0
            do {
                try log.recover(reaching: reached.length >= covered.length ? reached : covered) { record in
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
        // Pending fingerprints stay pending: the checkpoint on disk covers the log up to
        // where the table holds it, and the records after that are replayed again at
        // the next start.
        if index.pending.isEmpty { try index.recordCheckpoint(covering: log.position) }
        return (index, recovery)
    }

    /// The index file at `path` if it can be used as it is: this vault's, closed cleanly,
    /// every page intact and as many fingerprints as its header says. Its filter is
    /// built on the way, from the fingerprints read to count them.
    private static func openExisting(
        path: String, log: VaultFile, system: any VaultFileSystem, cache: VaultIndexPageCache, options: Options
    ) -> Result<VaultIndex, RebuildReason> {
        do {
            let file = try VaultIndexFile.open(path: path, system: system)
            guard file.header.vaultKeyChecksum == log.keyChecksum else { throw RebuildReason.otherVault }
            guard file.header.isClean else { throw RebuildReason.notClosedCleanly }
            let index = VaultIndex(path: path, system: system, file: file, cache: cache, options: options)
            var stored = 0
            try index.forEachStoredFingerprint { fingerprint, _ in
                stored += 1
                index.filter.insert(fingerprint)
            }
            guard stored == index.storedCount else { throw RebuildReason.wrongCount }
            return .success(index)
        } catch let reason as RebuildReason {
            return .failure(reason)
        } catch let error as VaultError where error == .damaged {
            return .failure(.damaged)
        } catch {
            return .failure(.unreadable)
        }
    }

    /// An empty index at `path`, large enough for every fingerprint the log could hold,
    /// checkpointed as covering none of it.
    private static func build(
        path: String, log: VaultFile, system: any VaultFileSystem, cache: VaultIndexPageCache, options: Options
    ) throws -> VaultIndex {
        let most = max(0, (log.size - VaultFile.headerSize) / VaultFile.fingerprintSize)
        let pages = pageCount(for: most, atLeast: options.initialPageCount)
        let header = VaultIndexHeader(vaultKeyChecksum: log.keyChecksum, pageCount: pages)
        let file = try VaultIndexFile.create(path: path, system: system, header: header)
        let index = VaultIndex(path: path, system: system, file: file, cache: cache, options: options)
        try index.recordCheckpoint(covering: .empty)
        return index
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
        guard filter.mayContain(fingerprint) else { return false }
        if pending.contains(fingerprint) { return true }
        return try guarded { try isStored(fingerprint) }
    }

    /// Adds a fingerprint that ``contains(_:)`` said is absent. It waits in memory until
    /// the next merge; if the pending fingerprints are at their bound (only when one
    /// call brings more than ``reserveCapacity(adding:loggedUpTo:)`` made room for),
    /// they are merged first, and the checkpoint after it waits for the next merge.
    func insert(_ fingerprint: Fingerprint) throws {
        if let failure { throw failure }
        if fingerprint.isZero {
            holdsZeroFingerprint = true
            return
        }
        if pending.count >= pending.limit { try guarded { try merge(covering: nil) } }
        pending.insert(fingerprint)
        filter.insert(fingerprint)
    }

    /// Grows the table when `additional` more fingerprints would take it past the load
    /// bound, and otherwise merges the pending fingerprints when they would pass their
    /// bound. Either is checkpointed as covering the log up to `position`, which is
    /// exactly what the index holds at this point.
    func reserveCapacity(adding additional: Int, loggedUpTo position: VaultFile.Position) throws {
        if let failure { throw failure }
        let needed = Self.pageCount(for: count + additional, atLeast: pageCount)
        if needed > pageCount {
            try guarded { try grow(to: needed, covering: position) }
        } else if pending.count + additional > pending.limit {
            try guarded { try merge(covering: position) }
        }
    }

    /// Whether `fingerprint` is in the table (not counting pending ones).
    private func isStored(_ fingerprint: Fingerprint) throws -> Bool {
        let slotsPerPage = VaultIndexFile.slotsPerPage
        let home = fingerprint.homeSlot(amongSlots: pageCount * slotsPerPage)
        var page = home / slotsPerPage
        var slot = home % slotsPerPage
        while true {
            let bytes = try cache.page(page, of: file)
            while slot < slotsPerPage {
                let stored = Fingerprint(bytesAt: bytes + slot * VaultIndexFile.slotSize)
                if stored.isZero { return false }
                if stored == fingerprint { return true }
                slot += 1
            }
            page = page + 1 == pageCount ? 0 : page + 1
            slot = 0
        }
    }

    // MARK: Merging, growing, checkpoints and closing

    /// Merges the pending fingerprints into the table in one pass from its first page to
    /// its last, then, given the log `position` the table now holds, checkpoints it.
    private func merge(covering position: VaultFile.Position?) throws {
        let writer = VaultIndexTableWriter(file: file, pageCount: pageCount, cache: cache, startsEmpty: false)
        for fingerprint in pending.inOrder() { try writer.add(fingerprint) }
        try writer.finish()
        storedCount += writer.addedCount
        pending.removeAll()
        if let position { try recordCheckpoint(covering: position) }
    }

    /// Builds the table with `newPageCount` pages, from the old one and the pending
    /// fingerprints, in a new file, which replaces the old one once it is complete and
    /// durable; `position` is the log position it covers. Its filter is built as it is
    /// written.
    private func grow(to newPageCount: Int, covering position: VaultFile.Position) throws {
        var header = VaultIndexHeader(vaultKeyChecksum: file.header.vaultKeyChecksum, pageCount: newPageCount)
        let growingPath = path + ".growing"
        var grown: VaultIndexFile?
        // The old filter goes first, so that two are not held at once: growing reads the
        // table, and a failed growth fails the index.
        filter = FingerprintFilter(pageCount: 0)
        let newFilter = FingerprintFilter(pageCount: newPageCount)
        let writer: VaultIndexTableWriter
        do {
            let newFile = try VaultIndexFile.create(path: growingPath, system: system, header: header)
            grown = newFile
            writer = VaultIndexTableWriter(file: newFile, pageCount: newPageCount, cache: nil, startsEmpty: true)
            try forEachFingerprintInOrder { fingerprint in
                try writer.add(fingerprint)
                newFilter.insert(fingerprint)
            }
            try writer.finish()
            header.count = writer.addedCount + (holdsZeroFingerprint ? 1 : 0)
            header.holdsZeroFingerprint = holdsZeroFingerprint
            header.covered = position
            header.logReached = position
            try newFile.checkpoint(header)
            try newFile.move(to: path)
        } catch {
            // A half-built table is of no use (the next start rebuilds from the log), and
            // on a full disk it holds the space the vault needs.
            grown?.close()
            unlink(growingPath)
            throw error
        }
        file.close()
        file = grown!
        pageCount = newPageCount
        storedCount = writer.addedCount
        filter = newFilter
        pending.removeAll()
        cache.discard()
    }

    /// Merges the pending fingerprints into the table and records, durably, that it holds
    /// the log up to `position`.
    func checkpoint(covering position: VaultFile.Position) throws {
        if let failure { throw failure }
        try guarded { try merge(covering: position) }
    }

    /// Makes every page written so far durable and records that the table holds the log
    /// up to `position`.
    private func recordCheckpoint(covering position: VaultFile.Position) throws {
        var header = file.header
        header.count = storedCount + (holdsZeroFingerprint ? 1 : 0)
        header.holdsZeroFingerprint = holdsZeroFingerprint
        header.covered = position
        header.logReached = position
        try file.checkpoint(header)
    }

    /// Closes the index. Pending fingerprints are not merged: a merge writes most of a
    /// large table, and the log holds them, so the next start replays them from the last
    /// checkpoint's position (at most ``Options/pendingLimit`` of them). With none
    /// pending, the checkpoint is moved to `position`, so that the next start replays
    /// nothing.
    /// With some pending, the header still records how far the log reached, so that the
    /// next start can tell a log that lost acknowledged records.
    func close(covering position: VaultFile.Position) {
        if failure == nil {
            if pending.isEmpty {
                try? guarded { try recordCheckpoint(covering: position) }
            } else if file.header.isClean {
                var header = file.header
                header.logReached = position
                try? guarded { try file.checkpoint(header) }
            }
        }
        abandon()
    }

    /// Closes without writing anything (what a crash leaves on disk), and lets go of the
    /// index's memory, since the vault that holds it may live on after it is closed.
    func abandon() {
        countWhenClosed = countWhenClosed ?? count
        cache = VaultIndexPageCache(limit: 1)
        pending = PendingFingerprints(limit: 1)
        filter = FingerprintFilter(pageCount: 0)
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

    /// Reads the table from disk front to back, bypassing the cache, and hands over every
    /// fingerprint in a slot, with the slot's number.
    private func forEachStoredFingerprint(_ body: (Fingerprint, Int) throws -> Void) throws {
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
                    if !stored.isZero { try body(stored, (first + page) * VaultIndexFile.slotsPerPage + slot) }
                }
            }
            first += pages
        }
    }

    /// Hands over every fingerprint in the table and every pending one, in order, reading
    /// the table once front to back. A slot holds a fingerprint at or a little after its
    /// home, so the table is in order but within runs of full slots, and for the
    /// fingerprints at its start whose probe went on from its end: fingerprints are held
    /// back until the reading is a chunk past their home, and sorted. (One held back
    /// less than its run of full slots would come out of order, which the table writer
    /// still handles.)
    private func forEachFingerprintInOrder(_ body: (Fingerprint) throws -> Void) throws {
        let fresh = pending.inOrder()
        var nextFresh = 0
        func emit(_ fingerprint: Fingerprint) throws {
            while nextFresh < fresh.count && fresh[nextFresh] < fingerprint {
                try body(fresh[nextFresh])
                nextFresh += 1
            }
            try body(fingerprint)
        }
        let slotCount = pageCount * VaultIndexFile.slotsPerPage
        let slotsPerChunk = VaultIndexTableWriter.chunkPageCount * VaultIndexFile.slotsPerPage
        var heldBack: [Fingerprint] = []
        var wrapped: [Fingerprint] = []
        var chunkEnd = slotsPerChunk
        func release(before slot: Int) throws {
            heldBack.sort()
            let ready = heldBack.prefix { $0.homeSlot(amongSlots: slotCount) < slot }.count
            for fingerprint in heldBack.prefix(ready) { try emit(fingerprint) }
            heldBack.removeFirst(ready)
        }
        try forEachStoredFingerprint { fingerprint, slot in
            while slot >= chunkEnd {
                try release(before: chunkEnd - slotsPerChunk)
                chunkEnd += slotsPerChunk
            }
            if fingerprint.homeSlot(amongSlots: slotCount) > slot {
                wrapped.append(fingerprint)
            } else {
                heldBack.append(fingerprint)
            }
        }
        heldBack += wrapped
        try release(before: slotCount)
        while nextFresh < fresh.count {
            try body(fresh[nextFresh])
            nextFresh += 1
        }
    }

    // MARK: Figures for tests and reports

    /// Pages held in memory now, and at most.
    var heldPageCount: Int { cache.heldPageCount }
    var cachedPageLimit: Int { cache.limit }
    /// Pages read from the file for lookups.
    var pageReadCount: Int { cache.misses }
    /// Slot pages in the table.
    var tablePageCount: Int { pageCount }
    /// The index file's size in bytes.
    var fileSize: Int { file.size }
    /// Fingerprints waiting in memory for the next merge, and the most there may be.
    var pendingCount: Int { pending.count }
    var pendingLimit: Int { pending.limit }
    /// The filter's memory in bytes.
    var filterByteCount: Int { filter.byteCount }
    /// Whether the filter may hold `fingerprint`.
    func filterMayContain(_ fingerprint: Fingerprint) -> Bool { filter.mayContain(fingerprint) }
}
