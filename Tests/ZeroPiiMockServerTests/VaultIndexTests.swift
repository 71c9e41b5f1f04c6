import Foundation
import Testing
import ZeroPiiTestHelpers

@testable import ZeroPiiMockServer

/// The vault's on-disk index: it agrees with the log, survives growth and merges, is
/// repaired or rebuilt from the log at open, and keeps its memory within its bounds.
struct VaultIndexTests {
    /// Small sizes, so that a few thousand values make the table grow, pending
    /// fingerprints get merged and pages get evicted.
    static let small = VaultIndex.Options(initialPageCount: 1, cachedPageLimit: 8, pendingLimit: 1000)

    static func values(_ range: Range<Int>) -> [String] { range.map { "user\($0)@example.com" } }

    /// Tokenizes `values` in batches of `batch` and returns every entry.
    static func fill(_ vault: TokenVault, _ values: [String], batch: Int = 500) throws -> [TokenVault.Entry] {
        var entries: [TokenVault.Entry] = []
        var start = 0
        while start < values.count {
            entries += try vault.tokenize(Array(values[start..<min(values.count, start + batch)]))
            start += batch
        }
        return entries
    }

    /// Records `values` in batches of 1000 (no tokens) and returns which were new.
    static func record(_ vault: TokenVault, _ values: [String]) throws -> [Bool] {
        var flags: [Bool] = []
        var start = 0
        while start < values.count {
            flags += try vault.record(Array(values[start..<min(values.count, start + 1000)]))
            start += 1000
        }
        return flags
    }

    static func indexPath(_ path: String) -> String { VaultIndex.path(forVault: path) }

    @Test func theIndexAgreesWithTheLogAfterManyInsertsAndAReopen() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let vault = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: Self.small)
        #expect(vault.indexRecovery == .rebuilt(.missing))
        let first = try Self.fill(vault, Self.values(0..<20_000))
        #expect(first.allSatisfy { $0.newlyCreated })
        #expect(vault.count == 20_000)
        vault.close()

        // The last merge left two records of 500 pending, which the log gives back.
        let reopened = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: Self.small)
        #expect(reopened.indexRecovery == .caughtUp(records: 2))
        #expect(reopened.count == 20_000)
        let again = try Self.fill(reopened, Self.values(0..<20_100))
        #expect(again.prefix(20_000).allSatisfy { $0.exists && !$0.newlyCreated })
        #expect(again.suffix(100).allSatisfy { $0.newlyCreated })
        #expect(again.prefix(20_000).map(\.token) == first.map(\.token))
        reopened.close()

        // The same answers from an index built afresh from the log alone.
        try FileManager.default.removeItem(atPath: Self.indexPath(path))
        let rebuilt = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: Self.small)
        #expect(rebuilt.indexRecovery == .rebuilt(.missing))
        #expect(rebuilt.count == 20_100)
        #expect(try Self.fill(rebuilt, Self.values(0..<20_100)).allSatisfy { $0.exists })
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case deleted, truncated, headerByteFlipped, slotByteFlipped, pageZeroed, fromAnotherVault
        var testDescription: String { rawValue }
    }

    /// Whatever happened to the index file, the vault opens with every value it had
    /// (rebuilt from the log), and the next open uses the rebuilt index as it is.
    @Test(arguments: Damage.allCases) func aDamagedIndexIsRebuiltFromTheLog(_ damage: Damage) throws {
        let path = TokenVaultTests.temporaryPath()
        let other = TokenVaultTests.temporaryPath()
        defer {
            TokenVaultTests.removeVault(path)
            TokenVaultTests.removeVault(other)
        }
        let vault = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: Self.small)
        let before = try Self.fill(vault, Self.values(0..<3000))
        vault.close()

        let index = Self.indexPath(path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: index))
        let expected: VaultIndex.RebuildReason
        switch damage {
        case .deleted:
            try FileManager.default.removeItem(atPath: index)
            expected = .missing
        case .truncated:
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: index))
            expected = .wrongSize
        case .headerByteFlipped:
            bytes[20] ^= 0x01
            try bytes.write(to: URL(fileURLWithPath: index))
            expected = .notAnIndex
        case .slotByteFlipped:
            bytes[VaultIndexFile.pageSize + 100] ^= 0x01
            try bytes.write(to: URL(fileURLWithPath: index))
            expected = .damaged
        case .pageZeroed:
            bytes.replaceSubrange(VaultIndexFile.pageSize..<(2 * VaultIndexFile.pageSize), with: Data(count: VaultIndexFile.pageSize))
            try bytes.write(to: URL(fileURLWithPath: index))
            expected = .wrongCount
        case .fromAnotherVault:
            let stranger = try TokenVault(path: other)
            _ = try stranger.tokenize(["someone else"])
            stranger.close()
            try FileManager.default.removeItem(atPath: index)
            try FileManager.default.copyItem(atPath: Self.indexPath(other), toPath: index)
            expected = .otherVault
        }

        let reopened = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: Self.small)
        #expect(reopened.indexRecovery == .rebuilt(expected))
        #expect(reopened.count == 3000)
        let after = try Self.fill(reopened, Self.values(0..<3001))
        #expect(after.prefix(3000).allSatisfy { $0.exists && !$0.newlyCreated })
        #expect(after.prefix(3000).map(\.token) == before.map(\.token))
        #expect(after[3000].newlyCreated)
        try reopened.checkpointIndex()
        reopened.close()
        let third = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: Self.small)
        #expect(third.indexRecovery == .reused)
        #expect(third.count == 3001)
    }

    /// A log cut back behind what the index covers (its last record's end zeroed, as a
    /// torn tail would look): the index saw that record, so it was acknowledged, and the
    /// vault refuses to start rather than drop it.
    @Test func anIndexThatCoversMoreThanTheLogStopsTheVault() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        _ = try TokenVault(path: path).tokenize(["first"])
        let second = try TokenVault(path: path)
        _ = try second.tokenize(["second"])
        try second.checkpointIndex()
        second.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.replaceSubrange((bytes.count - 10)..., with: Data(count: 10))
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: VaultError.recordsLost) { try TokenVault(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    /// Doubling the table again and again (from one page to thousands) keeps every value,
    /// while the pages in memory never pass their bound.
    @Test(.skippedUnderThreadSanitizer) func growingKeepsEveryEntry() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let options = VaultIndex.Options(initialPageCount: 1, cachedPageLimit: 16, pendingLimit: 5000)
        let vault = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: options)
        let values = Self.values(0..<200_000)
        #expect(try Self.record(vault, values).allSatisfy { $0 })
        let figures = try #require(vault.indexFigures)
        #expect(figures.tablePages == 2048)  // 200,000 at most 70% of 255 slots a page, doubled from 1
        #expect(figures.heldPages <= 16)
        #expect(try Self.record(vault, values).allSatisfy { !$0 })
        #expect(values.allSatisfy { vault.indexFilterMayContain($0) })
        try vault.checkpointIndex()
        vault.close()
        let reopened = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: options)
        #expect(reopened.indexRecovery == .reused)
        #expect(values.allSatisfy { reopened.indexFilterMayContain($0) })
        #expect(reopened.count == 200_000)
        #expect(try Self.record(reopened, values + ["one more"]) == Array(repeating: false, count: 200_000) + [true])
    }

    /// The index's memory stays within its bounds however many values come in: the pages
    /// held (filled by lookups of values the vault has), the pending fingerprints, and
    /// the filter, which follows the table's size (256 bytes a page).
    @Test func theIndexsMemoryStaysWithinItsBounds() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let options = VaultIndex.Options(initialPageCount: 1, cachedPageLimit: 32, pendingLimit: 3000)
        let vault = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: options)
        var held: [Int] = []
        var tablePages: [Int] = []
        var mostPending = 0
        for round in 0..<5 {
            let values = Self.values((round * 20_000)..<((round + 1) * 20_000))
            var start = 0
            while start < values.count {
                _ = try vault.record(Array(values[start..<(start + 500)]))
                mostPending = max(mostPending, try #require(vault.indexMemory).pending)
                start += 500
            }
            #expect(try Self.record(vault, values).allSatisfy { !$0 })
            let figures = try #require(vault.indexFigures)
            held.append(figures.heldPages)
            tablePages.append(figures.tablePages)
            let memory = try #require(vault.indexMemory)
            #expect(memory.filterBytes == 256 * figures.tablePages)
        }
        #expect(held == [32, 32, 32, 32, 32])
        #expect(mostPending == 3000)
        #expect(tablePages == [128, 256, 512, 512, 1024])
        #expect(vault.count == 100_000)
        // Closing lets go of the memory; the vault object may live on.
        vault.close()
        let closed = try #require(vault.indexMemory)
        #expect(closed.filterBytes == 64 && closed.pendingLimit == 1 && closed.pending == 0)
        #expect(vault.count == 100_000)
    }

    /// A crash after the log's record was synced and before the index took it in: the
    /// next open replays that record from the log (the index had been checkpointed).
    @Test func aCrashBetweenTheLogWriteAndTheIndexWriteIsRepairedAtTheNextOpen() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let vault = try TokenVault(path: path)
        let before = try vault.tokenize(["a@example.com", "b@example.com"])
        #expect(throws: VaultError.cannotWrite) {
            try vault.tokenizeStoppingAfterLogWrite(["c@example.com", "a@example.com", "d@example.com"])
        }
        #expect(throws: VaultError.cannotWrite) { try vault.tokenize(["a@example.com"]) }

        let reopened = try TokenVault(path: path)
        #expect(reopened.indexRecovery == .caughtUp(records: 2))
        #expect(reopened.count == 4)
        let after = try reopened.tokenize(["a@example.com", "b@example.com", "c@example.com", "d@example.com", "e@example.com"])
        #expect(after.map(\.exists) == [true, true, true, true, false])
        #expect(after.prefix(2).map(\.token) == before.map(\.token))
        #expect(after[2].token == reopened.token(for: "c@example.com"))
    }

    /// A crash in the middle of a merge, after the header was marked not clean and before
    /// the checkpoint (here the sync after that mark fails, which fails the index, so that
    /// closing writes nothing more): the index is rebuilt from the log, with every value
    /// that was answered.
    @Test func aCrashInTheMiddleOfAMergeRebuildsTheIndex() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let system = InjectedFileSystem()
        let options = VaultIndex.Options(initialPageCount: 64, cachedPageLimit: 2, pendingLimit: 1000)
        let vault = try TokenVault(path: path, system: system, indexOptions: options)
        _ = try Self.fill(vault, Self.values(0..<5000))
        system.failNextSync = true
        #expect(throws: VaultError.cannotWrite) { try vault.tokenize(Self.values(5000..<5500)) }
        #expect(throws: VaultError.cannotWrite) { try vault.tokenize(Self.values(5000..<5010)) }
        vault.close()
        let reopened = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: options)
        #expect(reopened.indexRecovery == .rebuilt(.notClosedCleanly))
        #expect(reopened.count == 5000)
        #expect(try Self.fill(reopened, Self.values(0..<5001)).map(\.exists) == Array(repeating: true, count: 5000) + [false])
    }

    /// A crash with fingerprints pending (recorded in the log, not yet merged into the
    /// table): the index on disk is the last checkpoint's, and the next open replays the
    /// records after it, so nothing answered is lost.
    @Test func aCrashWithPendingFingerprintsLosesNothing() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let options = VaultIndex.Options(initialPageCount: 1, cachedPageLimit: 4, pendingLimit: 1000)
        let vault = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: options)
        let answered = try Self.fill(vault, Self.values(0..<5000))
        #expect(try #require(vault.indexMemory).pending == 500)  // the last record; the one before it was merged
        #expect(throws: VaultError.cannotWrite) {
            try vault.tokenizeStoppingAfterLogWrite(Self.values(5000..<5010))
        }
        let reopened = try TokenVault(path: path, system: SystemVaultFileSystem(), indexOptions: options)
        #expect(reopened.indexRecovery == .caughtUp(records: 2))
        #expect(reopened.count == 5010)
        let after = try Self.fill(reopened, Self.values(0..<5011))
        #expect(after.map(\.exists) == Array(repeating: true, count: 5010) + [false])
        #expect(after.prefix(5000).map(\.token) == answered.map(\.token))
    }

    /// A table half built when a crash came while growing is removed; the old one is
    /// whole and is used.
    @Test func aTableLeftHalfGrownIsRemoved() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        _ = try TokenVault(path: path).tokenize(["kept"])
        let growing = Self.indexPath(path) + ".growing"
        try Data(repeating: 7, count: 9000).write(to: URL(fileURLWithPath: growing))
        let reopened = try TokenVault(path: path)
        #expect(reopened.indexRecovery == .caughtUp(records: 1))
        #expect(!FileManager.default.fileExists(atPath: growing))
        #expect(try reopened.tokenize(["kept"])[0].exists)
    }

    /// Many threads bringing the same new value to a vault with a file: one of them
    /// sees it as new, and the index holds it once.
    @Test func exactlyOneConcurrentRequestSeesANewValueAsNewWithAFile() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let vault = try TokenVault(path: path)
        let results = ConcurrentResults<Bool>(count: 64)
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            results.set(index, (try? vault.tokenize(["same-new-value", "other-\(index % 4)"])[0].newlyCreated) ?? false)
        }
        #expect(results.all.filter { $0 }.count == 1)
        #expect(vault.count == 5)
    }
}
