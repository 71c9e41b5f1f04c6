import Foundation
import Testing
import ZeroPiiTestHelpers

@testable import ZeroPiiMockServer

/// What keeps a new value's cost flat: the filter that answers for values the vault has
/// not seen, the pending fingerprints that lookups see before they reach the table, and
/// the merge that writes the table once from its first page to its last.
struct VaultIndexMergeTests {
    static func randomFingerprints(_ count: Int, seed: UInt64, highBelow: UInt64 = .max) -> [Fingerprint] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            Fingerprint(high: UInt64.random(in: 1...highBelow, using: &generator), low: generator.next())
        }
    }

    /// Never a no for a fingerprint it was given, at every fill of the table it is sized
    /// for; yes for others only at the rate its size gives (about 0.5% at 70% full).
    @Test func theFilterHasEveryFingerprintItWasGiven() {
        let pageCount = 1024
        let filter = FingerprintFilter(pageCount: pageCount)
        let given = Self.randomFingerprints(pageCount * VaultIndexFile.slotsPerPage * 70 / 100, seed: 1)
        for (offset, fingerprint) in given.enumerated() {
            filter.insert(fingerprint)
            if offset % 10_000 == 0 { #expect(given.prefix(offset + 1).allSatisfy(filter.mayContain)) }
        }
        #expect(given.allSatisfy(filter.mayContain))
        let others = Self.randomFingerprints(100_000, seed: 2)
        let falseYes = others.filter(filter.mayContain).count
        #expect(falseYes < 1_000)
        #expect(filter.byteCount == pageCount * 256)
    }

    /// The pending fingerprints answer for every one inserted, whether it is still among
    /// the recent ones or already in the sorted array, and hand them over in order.
    @Test func pendingFingerprintsAreSeenAndComeOutInOrder() {
        let pending = PendingFingerprints(limit: 10_000)
        #expect(pending.recentLimit == 1250)
        let inserted = Self.randomFingerprints(9_999, seed: 3)
        for fingerprint in inserted { pending.insert(fingerprint) }
        #expect(pending.count == 9_999)
        #expect(pending.sortedArrayCount == 8_750)  // seven full sets of recent ones
        #expect(inserted.allSatisfy(pending.contains))
        #expect(!Self.randomFingerprints(10_000, seed: 4).contains(where: pending.contains))
        let ordered = Array(pending.inOrder())
        #expect(ordered == inserted.sorted())
        #expect(pending.sortedArrayCount == 9_999)
        pending.removeAll()
        #expect(pending.isEmpty && !pending.contains(inserted[0]))
    }

    /// Values recorded and not yet merged are seen by lookups, and the table is not
    /// written for them: the index file is the one the last checkpoint left.
    @Test func pendingValuesAreSeenBeforeAnyMerge() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let options = VaultIndex.Options(initialPageCount: 64, cachedPageLimit: 8, pendingLimit: 10_000)
        let vault = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: options)
        let indexFile = VaultIndex.path(forVault: path)
        let emptyTable = try Data(contentsOf: URL(fileURLWithPath: indexFile))
        let values = VaultIndexTests.values(0..<3_000)
        #expect(try VaultIndexTests.record(vault, values).allSatisfy { $0 })
        #expect(try #require(vault.indexMemory).pending == 3_000)
        #expect(try Data(contentsOf: URL(fileURLWithPath: indexFile)) == emptyTable)
        #expect(try VaultIndexTests.record(vault, values + ["new"]) == Array(repeating: false, count: 3_000) + [true])
        try vault.checkpointIndex()
        #expect(try #require(vault.indexMemory).pending == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: indexFile)) != emptyTable)
        #expect(try VaultIndexTests.record(vault, values + ["new"]).allSatisfy { !$0 })
    }

    /// A value the vault has not seen reads no index page (but for the filter's rare
    /// false yes); a value it has reads its page.
    @Test func aNewValueReadsNoIndexPage() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let options = VaultIndex.Options(initialPageCount: 64, cachedPageLimit: 8, pendingLimit: 1000)
        let vault = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: options)
        _ = try VaultIndexTests.record(vault, VaultIndexTests.values(0..<10_000))
        try vault.checkpointIndex()
        let before = try #require(vault.indexMemory).pageReads
        #expect(try VaultIndexTests.record(vault, VaultIndexTests.values(10_000..<20_000)).allSatisfy { $0 })
        let afterNew = try #require(vault.indexMemory).pageReads
        #expect(afterNew - before < 200)  // 10,000 new values; the filter's false yes rate is below 1% here
        #expect(try VaultIndexTests.record(vault, VaultIndexTests.values(0..<1_000)).allSatisfy { !$0 })
        #expect(try #require(vault.indexMemory).pageReads - afterNew > 500)  // 64 or more pages, 8 held
    }

    /// A merge writes each changed page once, in page order, and the fingerprints it put
    /// in are found in the table from then on, also after a reopen.
    @Test func aMergeWritesEachPageOnceFrontToBack() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let system = WriteRecordingFileSystem()
        let log = try VaultFile.open(path: path, system: system)
        let options = VaultIndex.Options(initialPageCount: 256, cachedPageLimit: 4, pendingLimit: 40_000)
        let (index, _) = try VaultIndex.open(beside: log, system: system, options: options)
        // Homes below the last pages, so that no probe runs past the end of the table.
        let fingerprints = Self.randomFingerprints(30_000, seed: 5, highBelow: UInt64.max / 10 * 9)
        try index.reserveCapacity(adding: fingerprints.count, loggedUpTo: log.position)
        for fingerprint in fingerprints { try index.insert(fingerprint) }
        system.startRecording()
        try index.checkpoint(covering: log.position)
        let pages = system.recordedPageWrites(toFileEndingWith: ".index")
        #expect(pages.count > 200)
        #expect(pages == pages.sorted() && Set(pages).count == pages.count)
        #expect(try fingerprints.allSatisfy(index.contains))
        index.close(covering: log.position)

        let (reopened, recovery) = try VaultIndex.open(beside: log, system: system, options: options)
        #expect(recovery == .reused)
        #expect(reopened.count == 30_000)
        #expect(try fingerprints.allSatisfy(reopened.contains))
        #expect(try !Self.randomFingerprints(1_000, seed: 6).contains(where: reopened.contains))
    }

    /// Fingerprints whose probe runs past the end of the last chunk a merge reads go on
    /// in the next page, where lookups probe for them, also when no fingerprint has its
    /// home in that chunk.
    @Test func probesPastAChunksEndGoOnInTheNextPage() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let log = try VaultFile.open(path: path)
        let options = VaultIndex.Options(initialPageCount: 128, cachedPageLimit: 2, pendingLimit: 1_000)
        let (index, _) = try VaultIndex.open(beside: log, system: SystemVaultFileSystem(), options: options)
        #expect(VaultIndexTableWriter.chunkPageCount == 64)
        // 400 homes in page 63, the last of the first chunk: 145 run into page 64.
        var generator = SplitMix64(seed: 9)
        let pageWidth = UInt64.max / 128
        let atTheChunksEnd = (0..<400).map { _ in
            Fingerprint(high: UInt64.random(in: (pageWidth * 63 + 1)...(pageWidth * 64 - 1), using: &generator), low: generator.next())
        }
        try index.reserveCapacity(adding: 400, loggedUpTo: log.position)
        for fingerprint in atTheChunksEnd { try index.insert(fingerprint) }
        try index.checkpoint(covering: log.position)
        #expect(index.tablePageCount == 128 && index.pendingCount == 0)
        #expect(try atTheChunksEnd.allSatisfy(index.contains))
        index.close(covering: log.position)
        let (reopened, recovery) = try VaultIndex.open(beside: log, system: SystemVaultFileSystem(), options: options)
        #expect(recovery == .reused && reopened.count == 400)
        #expect(try atTheChunksEnd.allSatisfy(reopened.contains))
        reopened.close(covering: log.position)
    }

    /// Fingerprints whose probe runs past the table's last page go on from the first, in
    /// a merge and when the table grows.
    @Test func probesPastTheLastPageWrapAround() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let log = try VaultFile.open(path: path)
        let options = VaultIndex.Options(initialPageCount: 4, cachedPageLimit: 2, pendingLimit: 600)
        let (index, _) = try VaultIndex.open(beside: log, system: SystemVaultFileSystem(), options: options)
        // 600 homes in the last page of a 4-page table, which has 255 slots.
        var generator = SplitMix64(seed: 7)
        let atTheEnd = (0..<600).map { _ in
            Fingerprint(high: UInt64.random(in: (UInt64.max / 4 * 3 + 1)...UInt64.max, using: &generator), low: generator.next())
        }
        try index.reserveCapacity(adding: 600, loggedUpTo: log.position)
        #expect(index.tablePageCount == 4)
        for fingerprint in atTheEnd { try index.insert(fingerprint) }
        try index.checkpoint(covering: log.position)
        #expect(index.pendingCount == 0)
        #expect(try atTheEnd.allSatisfy(index.contains))
        // Growing reads the wrapped fingerprints at the table's start, and puts them at
        // the end of the new one.
        let more = Self.randomFingerprints(2_000, seed: 8)
        try index.reserveCapacity(adding: more.count, loggedUpTo: log.position)
        #expect(index.tablePageCount == 16)
        for fingerprint in more { try index.insert(fingerprint) }
        try index.checkpoint(covering: log.position)
        #expect(index.count == 2_600)
        #expect(try (atTheEnd + more).allSatisfy(index.contains))
        index.close(covering: log.position)
    }
}

/// The system calls, recording the page number of every write to a file from when
/// ``startRecording()`` is called.
final class WriteRecordingFileSystem: VaultFileSystem, @unchecked Sendable {
    // Sendable: the record is guarded by `lock`.
    private let lock = NSLock()
    private var recording = false
    private var writes: [(path: String, offset: Int)] = []
    private let system = SystemVaultFileSystem()

    func startRecording() {
        lock.withLock {
            recording = true
            writes = []
        }
    }

    /// The slot pages written to the file whose path ends with `suffix`, in order (the
    /// header page, page 0 of the file, is left out).
    func recordedPageWrites(toFileEndingWith suffix: String) -> [Int] {
        lock.withLock {
            writes.filter { $0.path.hasSuffix(suffix) && $0.offset > 0 }.map { $0.offset / VaultIndexFile.pageSize - 1 }
        }
    }

    func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        system.read(descriptor, buffer, count)
    }

    func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        system.write(descriptor, buffer, count)
    }

    func readAt(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int) -> Int {
        system.readAt(descriptor, buffer, count, offset)
    }

    func writeAt(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: Int) -> Int {
        if lock.withLock({ recording }) {
            let path = InjectedFileSystem.path(of: descriptor)
            lock.withLock { writes.append((path, offset)) }
        }
        return system.writeAt(descriptor, buffer, count, offset)
    }

    func synchronize(_ descriptor: Int32) -> Int32 {
        system.synchronize(descriptor)
    }

    func truncate(_ descriptor: Int32, _ length: Int) -> Int32 {
        system.truncate(descriptor, length)
    }
}
