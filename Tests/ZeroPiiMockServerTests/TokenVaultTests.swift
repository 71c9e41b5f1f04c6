import Foundation
import Testing

@testable import ZeroPiiMockServer

struct TokenVaultTests {
    static func temporaryPath() -> String {
        NSTemporaryDirectory() + "zeropii-vault-\(UUID().uuidString).db"
    }

    /// Removes a vault file and its index.
    static func removeVault(_ path: String) {
        for file in [path, VaultIndex.path(forVault: path), VaultIndex.path(forVault: path) + ".growing"] {
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    @Test func tokensAreStableAndFlagsTrackWhatWasSeen() throws {
        let vault = TokenVault()
        let first = try vault.tokenize(["a@example.com", "b@example.com", "a@example.com"])
        #expect(first.map(\.newlyCreated) == [true, true, false])
        #expect(first.map(\.exists) == [false, false, true])
        #expect(first[0].token == first[2].token && first[0].token != first[1].token)
        let second = try vault.tokenize(["b@example.com"])
        #expect(second[0].exists && second[0].token == first[1].token)
        #expect(vault.count == 2)
    }

    @Test func exactlyOneConcurrentRequestSeesANewValueAsNew() throws {
        let vault = TokenVault()
        let newCount = NSLock()
        nonisolated(unsafe) var created = 0
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let entry = try! vault.tokenize(["same-new-value"])[0]
            if entry.newlyCreated { newCount.withLock { created += 1 } }
        }
        #expect(created == 1)
    }

    @Test func aRestartKeepsEveryTokenAndFlag() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let before = try TokenVault(path: path).tokenize(["a", "b", "c"])
        let reopened = try TokenVault(path: path)
        #expect(reopened.count == 3)
        let after = try reopened.tokenize(["a", "b", "c", "d"])
        #expect(after.prefix(3).map(\.token) == before.map(\.token))
        #expect(after.map(\.exists) == [true, true, true, false])
        let contents = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(!String(decoding: contents, as: UTF8.self).contains("zzz-plain"))
    }

    @Test func aTornLastRecordIsDroppedNotFatal() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let tokens = try TokenVault(path: path).tokenize(["kept-1", "kept-2"])
        let sizeBefore = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        // A crash in the middle of a record: its header and a fingerprint and a quarter.
        let handle = FileHandle(forWritingAtPath: path)!
        handle.seekToEndOfFile()
        handle.write(Data(VaultRecordDamageTests.record(fingerprints: 3).prefix(28)))
        handle.closeFile()
        let reopened = try TokenVault(path: path)
        #expect(reopened.droppedBytes == 28)
        #expect(reopened.count == 2)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int == sizeBefore)
        #expect(try reopened.tokenize(["kept-1"])[0].token == tokens[0].token)
        reopened.close()
        #expect(try TokenVault(path: path).count == 2)
    }

    /// In a vault of format 4 or before, a last record that does not check is taken for
    /// the torn tail of a crash, whatever its bytes (format 5 tells them apart:
    /// `VaultRecordDamageTests`), when no index says it was acknowledged: with its index
    /// beside it, the vault refuses to start instead.
    @Test func aCorruptedLastRecordOfAFormat4VaultEndsTheLog() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        try Self.header(version: UInt8(ascii: "4"), key: [UInt8](repeating: 4, count: 32)).write(to: URL(fileURLWithPath: path))
        _ = try TokenVault(path: path).tokenize(["first"])
        _ = try TokenVault(path: path).tokenize(["second"])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count == VaultFile.headerSize + 2 * (8 + VaultFile.fingerprintSize))
        bytes[bytes.count - 10] ^= 0xFF  // inside the second record
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: VaultError.recordsLost) { try TokenVault(path: path) }
        try FileManager.default.removeItem(atPath: VaultIndex.path(forVault: path))
        let reopened = try TokenVault(path: path)
        #expect(reopened.format == .typedNumbers)
        #expect(reopened.count == 1)
        #expect(try reopened.tokenize(["first"])[0].exists)
    }

    @Test func aFileThatIsNotAVaultIsRefused() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        try Data("not a vault at all, just some text that is long enough".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: VaultError.notAVaultFile) { try TokenVault(path: path) }
    }

    /// A vault of the previous token function (format 1) is refused, never read.
    @Test func aVaultOfTheEarlierTokenFunctionIsRefusedWithAWayOut() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let old = Data("ZPVAULT1".utf8) + Data(repeating: 7, count: 36) + Data([0, 0, 0, 1]) + Data(repeating: 9, count: 20)
        try old.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
        #expect(error == .earlierVersion)
        #expect(error.description.contains(path) && error.description.contains("start a new vault"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == old)
    }

    /// A vault file's header: the magic, the format's version byte, the key and its CRC
    /// (of the key alone for format 2 and for a version this code does not know, of the
    /// whole header before it for the others).
    static func header(version: UInt8, key: [UInt8]) -> Data {
        var bytes = Array("ZPVAULT".utf8) + [version] + key
        let covered = VaultFormat(rawValue: version)?.checksummedHeaderBytes ?? 8..<40
        withUnsafeBytes(of: CRC32.checksum(bytes[covered]).bigEndian) { bytes.append(contentsOf: $0) }
        return Data(bytes)
    }

    /// New vaults are written with the current token function, format 5.
    @Test func aNewVaultIsOfTheCurrentFormat() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let vault = try TokenVault(path: path)
        _ = try vault.tokenize(["alice@example.com"])
        #expect(vault.format == .readableLetters && VaultFormat.current == .readableLetters)
        vault.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(8) == Data("ZPVAULT5".utf8))
    }

    /// A vault created before format 3 keeps its token function: these tokens are what
    /// `zeropii tokenize` answered, before format 3 existed, from a format 2 vault file
    /// with this key (the bytes 0x00...0x1F).
    @Test func aFormat2VaultKeepsTheTokensItAnsweredBefore() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        try Self.header(version: UInt8(ascii: "2"), key: (0..<32).map { UInt8($0) }).write(to: URL(fileURLWithPath: path))
        let answeredBefore = [
            "alice@example.com": "bhoed@buupdwn.dlb",
            "+1 (555) 123-4567": "+7 (453) 291-2438",
            "Ольга Петрова": "Дғѱсѣ Ѽфяҡгњё",
        ]
        for round in 0..<2 {
            let vault = try TokenVault(path: path)
            #expect(vault.format == .keyedSHA256Rounds)
            let values = Array(answeredBefore.keys).sorted()
            let entries = try vault.tokenize(values)
            #expect(entries.map(\.token) == values.map { answeredBefore[$0]! })
            #expect(entries.allSatisfy { $0.newlyCreated == (round == 0) })
            vault.close()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(8) == Data("ZPVAULT2".utf8))
    }

    /// A file from a later version's token function is refused and left as it is.
    @Test func aVaultOfALaterFormatIsRefusedAndKept() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let later = Self.header(version: UInt8(ascii: "6"), key: [UInt8](repeating: 5, count: 32))
        try later.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
        #expect(error == .laterVersion)
        #expect(error.description.contains(path) && error.description.contains("later version") && error.description.contains("format 6"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == later)
    }

    /// One flipped bit in a format 3 header's version byte (`3` is 0x33, `2` is 0x32)
    /// would read the vault with another token function and change every token: the
    /// header's checksum covers the version, so the file is refused and kept. The same
    /// for a format 2 file relabelled 3.
    @Test func aHeaderWhoseVersionWasChangedIsRefusedAndKept() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let vault = try TokenVault(path: path)
        _ = try vault.tokenize(["alice@example.com"])
        vault.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[7] = UInt8(ascii: "2")
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: VaultError.notAVaultFile) { try TokenVault(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

        var format2 = Self.header(version: UInt8(ascii: "2"), key: (0..<32).map { UInt8($0) })
        format2[7] = UInt8(ascii: "3")
        try format2.write(to: URL(fileURLWithPath: path))
        #expect(throws: VaultError.notAVaultFile) { try TokenVault(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == format2)
    }

    /// A record count damaged into a large number makes the first record seem to run past
    /// the end of the file. It used to be taken for a torn tail, and opening cut away
    /// every record from there on; no write makes a record of more than 1,000
    /// fingerprints, so it is damage: refused, and the file kept whole.
    @Test func aDamagedCountIsDamageNotATornTail() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        _ = try TokenVault(path: path).tokenize(["first", "second"])
        _ = try TokenVault(path: path).tokenize(["third"])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let firstCount = VaultFile.headerSize
        bytes.replaceSubrange(firstCount..<(firstCount + 4), with: [0, 0x09, 0x27, 0xC0])  // 600,000
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
        #expect(error == .damaged && error.description.contains(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    /// More new values than one request brings are written as several records (of at
    /// most 1,000), so every record this code writes may be taken for a torn tail.
    @Test func aCallWithMoreNewValuesThanARequestIsWrittenAsSeveralRecords() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let values = (0..<2_500).map { "value-\($0)" }
        let vault = try TokenVault(path: path)
        let entries = try vault.tokenize(values)
        vault.close()
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        #expect(size == VaultFile.headerSize + 3 * 12 + 2_500 * VaultFile.fingerprintSize)
        let reopened = try TokenVault(path: path)
        #expect(reopened.count == 2_500 && reopened.droppedBytes == 0)
        #expect(try reopened.tokenize(values).map(\.token) == entries.map(\.token))
    }

    /// When the disk fills up while the index grows into its new file, the half-built
    /// file is removed (it held the space the vault needs), the call fails, and the
    /// next start rebuilds the index with nothing lost.
    @Test func aFailedGrowthLeavesNoHalfBuiltIndex() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let system = InjectedFileSystem()
        let options = VaultIndex.Options(initialPageCount: 1, cachedPageLimit: 2)
        let vault = try TokenVault(path: path, system: system, indexOptions: options)
        let kept = try vault.tokenize((0..<100).map { "kept-\($0)" })
        system.failWritesToGrowingIndexFiles()
        #expect(throws: VaultError.self) { try vault.tokenize((0..<400).map { "more-\($0)" }) }
        #expect(!FileManager.default.fileExists(atPath: VaultIndex.path(forVault: path) + ".growing"))
        vault.close()
        let reopened = try TokenVault(path: path)
        #expect(reopened.count == 100)
        #expect(try reopened.tokenize((0..<100).map { "kept-\($0)" }).map(\.token) == kept.map(\.token))
    }

    /// A start while the disk is full, when the index must be rebuilt (here: it is
    /// missing) and cannot be written: the vault opens with its index in memory and says
    /// why, serves every value it holds with its token, refuses new values while the disk
    /// stays full, takes them again once there is room, and the next start rebuilds the
    /// index file with nothing lost.
    @Test func aStartOnAFullDiskServesWhatTheVaultHolds() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let values = (0..<50).map { "held-\($0)" }
        let vault = try TokenVault(path: path)
        let tokens = try vault.tokenize(values).map(\.token)
        vault.close()
        try FileManager.default.removeItem(atPath: VaultIndex.path(forVault: path))
        let logBefore = try Data(contentsOf: URL(fileURLWithPath: path))

        let system = InjectedFileSystem()
        system.diskIsFull = true
        let reopened = try TokenVault(path: path, system: system)
        let failure = try #require(reopened.indexUnwritable)
        #expect(failure == .cannotWrite && failure.description.contains(VaultIndex.path(forVault: path)))
        #expect(failure.detail == String(cString: strerror(ENOSPC)))
        #expect(reopened.count == 50)
        let served = try reopened.tokenize(values)
        #expect(served.map(\.token) == tokens && served.allSatisfy(\.exists))
        #expect(throws: VaultError.cannotWrite) { try reopened.tokenize(["new-value"]) }
        #expect(reopened.count == 50)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == logBefore)

        system.diskIsFull = false
        #expect(try reopened.tokenize(["new-value"]).map(\.newlyCreated) == [true])
        #expect(try reopened.tokenize(["new-value"]).map(\.exists) == [true])
        reopened.close()
        let rebuilt = try TokenVault(path: path)
        #expect(rebuilt.indexUnwritable == nil && rebuilt.indexRecovery == .rebuilt(.missing))
        #expect(rebuilt.count == 51)
        #expect(try rebuilt.tokenize(values + ["new-value"]).allSatisfy(\.exists))
    }

    /// A bad record with more after it is damage, not a torn tail: refused, not cut.
    @Test func aDamagedRecordBeforeTheEndIsAnErrorAndTheFileIsKept() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        _ = try TokenVault(path: path).tokenize(["first"])
        _ = try TokenVault(path: path).tokenize(["second"])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[VaultFile.headerSize + 6] ^= 0xFF  // inside the first record
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
        #expect(error == .damaged && error.description.contains(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aReadErrorAtStartIsAnErrorAndTheFileIsKept() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        _ = try TokenVault(path: path).tokenize(["first"])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let system = InjectedFileSystem()
        system.failReads = true
        let error = try #require(throws: VaultError.self) { try TokenVault(path: path, system: system) }
        #expect(error == .cannotRead && error.description.contains(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func theFileIsTheOwnersOnly() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        _ = try TokenVault(path: path)
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let indexPermissions = try FileManager.default.attributesOfItem(atPath: VaultIndex.path(forVault: path))[.posixPermissions] as? Int
        #expect(indexPermissions == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix((path as NSString).lastPathComponent + ".new-") }
        #expect(leftovers.isEmpty)
    }

    /// Found from outside: a vault file that others could read (copied in, or made with
    /// a looser umask) was used as it was, and it holds the token key.
    @Test func anExistingFileOthersCanReadIsMadeTheOwnersOnly() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let token = try TokenVault(path: path).tokenize(["first"])[0].token
        #expect(try TokenVault(path: path).tightenedFromMode == nil)
        for mode in [0o644, 0o660, 0o606] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            let vault = try TokenVault(path: path)
            #expect(vault.tightenedFromMode == UInt16(mode))
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
            let entry = try vault.tokenize(["first"])[0]
            #expect(entry.token == token && entry.exists && !entry.newlyCreated)
            vault.close()
        }
    }

    /// One holder at a time: a second vault on the file is refused, or waits when asked to.
    @Test func aHeldFileIsRefusedOrWaitedFor() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let holder = try TokenVault(path: path)
        let token = try holder.tokenize(["held"])[0].token
        let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
        #expect(error == .locked && error.description.contains(path))

        let waiting = DispatchSemaphore(value: 0)
        let opened = DispatchSemaphore(value: 0)
        let announcements = ConcurrentResults<Int>(count: 1)
        let result = ConcurrentResults<String>(count: 1)
        DispatchQueue.global().async {
            let waiter = try? TokenVault(path: path) {
                announcements.set(0, 1)
                waiting.signal()
            }
            result.set(0, (try? waiter?.tokenize(["held"])[0].token) ?? "failed")
            opened.signal()
        }
        waiting.wait()
        holder.close()
        opened.wait()
        #expect(announcements.all == [1])
        #expect(result.all == [token])
    }

    /// An index without its vault (the vault moved or deleted) is the only trace of the
    /// values the vault answered: the vault refuses to start rather than make a new one
    /// with another key, and leaves the index as it is.
    @Test func aMissingVaultBesideItsIndexIsRefused() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        _ = try TokenVault(path: path).tokenize(["answered"])
        let index = try Data(contentsOf: URL(fileURLWithPath: VaultIndex.path(forVault: path)))
        try FileManager.default.removeItem(atPath: path)
        let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
        #expect(error == .missingBesideIndex)
        #expect(error.description.contains(path) && error.description.contains("delete the index to start a new vault"))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: VaultIndex.path(forVault: path))) == index)
        try FileManager.default.removeItem(atPath: VaultIndex.path(forVault: path))
        #expect(try TokenVault(path: path).createdFile)
    }

    /// A vault's name leaves room for its index's (`.index.growing` adds 14 bytes to a
    /// limit of 255): a longer one is refused at once with the limit, rather than fail
    /// every request once the index must grow; one of exactly the limit grows fine.
    @Test func aVaultNameTooLongForItsIndexIsRefused() throws {
        let folder = NSTemporaryDirectory() + "zeropii-long-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tooLong = folder + "/" + String(repeating: "v", count: VaultFile.longestName + 1)
        let error = try #require(throws: VaultError.self) { try TokenVault(path: tooLong) }
        #expect(error == .nameTooLong && error.description.contains("at most 241 bytes"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        let longest = folder + "/" + String(repeating: "v", count: VaultFile.longestName)
        let vault = try TokenVault(path: longest, system: SystemVaultFileSystem(), indexOptions: VaultIndex.Options(initialPageCount: 1))
        #expect(vault.createdFile)
        _ = try vault.tokenize((0..<2_000).map { "value-\($0)" })
        vault.close()
        #expect(try TokenVault(path: longest).count == 2_000)
    }

    /// A child process holds a copy of its parent's descriptors until it executes its
    /// program, and with them the lock of a vault the parent has just closed: reopening
    /// then must not take the file for another process's. Here a child (`sleep 0.02`)
    /// inherits a descriptor that holds the lock, and the parent lets go of its own.
    @Test func aLockAChildInheritedForAMomentIsWaitedFor() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let token = try TokenVault(path: path).tokenize(["held"])[0].token
        let inherited = open(path, O_RDWR)
        #expect(inherited >= 0 && flock(inherited, LOCK_EX | LOCK_NB) == 0)
        var child: pid_t = 0
        let arguments = ["/bin/sleep", "0.02"].map { $0.withCString { strdup($0) } } + [nil]
        defer { arguments.forEach { free($0) } }
        #expect(posix_spawn(&child, "/bin/sleep", nil, nil, arguments, environ) == 0)
        close(inherited)
        let reopened = try TokenVault(path: path)
        #expect(try reopened.tokenize(["held"])[0].token == token)
        var status: Int32 = 0
        waitpid(child, &status, 0)
    }

    /// A write that fails halfway (a full disk): the file goes back to its last whole
    /// record, the request fails, and every value answered before or after keeps its
    /// token across a restart.
    @Test func aFailedWriteLosesNothingAcknowledged() throws {
        let path = Self.temporaryPath()
        defer { Self.removeVault(path) }
        let system = InjectedFileSystem()
        let vault = try TokenVault(path: path, system: system)
        let before = try vault.tokenize(["a@example.com", "b@example.com"])
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        system.failNextWriteHalfway = true
        #expect(throws: VaultError.cannotWrite) { try vault.tokenize(["lost@example.com", "a@example.com"]) }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == size)
        let after = try vault.tokenize(["c@example.com"])
        system.failNextSync = true
        #expect(throws: VaultError.cannotWrite) { try vault.tokenize(["unsynced@example.com"]) }
        vault.close()

        let reopened = try TokenVault(path: path)
        #expect(reopened.droppedBytes == 0)
        let again = try reopened.tokenize(["a@example.com", "b@example.com", "c@example.com", "lost@example.com", "unsynced@example.com"])
        #expect(again.map(\.token) == (before + after).map(\.token) + again.suffix(2).map(\.token))
        #expect(again.map(\.exists) == [true, true, true, false, false])
    }
}

/// The vault's system calls with failures on demand.
final class InjectedFileSystem: VaultFileSystem, @unchecked Sendable {
    // Sendable: the flags are guarded by `lock`.
    private let lock = NSLock()
    private var writeHalfway = false
    private var syncFails = false
    private var readFails = false
    private var growingIndexWritesFail = false
    private var full = false
    private let system = SystemVaultFileSystem()

    /// Makes every `writeAt` to an index being grown (`….index.growing`) fail with
    /// ENOSPC: a disk that is full by the time the index grows into a new file. The file
    /// is told by its path, not by its descriptor's number, which other tests running at
    /// the same time may have used and closed, so that a new file gets a lower one.
    func failWritesToGrowingIndexFiles() {
        lock.withLock { growingIndexWritesFail = true }
    }

    /// The path `descriptor` was opened with.
    static func path(of descriptor: Int32) -> String {
        #if canImport(Darwin)
        var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
        guard fcntl(descriptor, F_GETPATH, &buffer) == 0 else { return "" }
        return String(cString: buffer)
        #else
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) ?? ""
        #endif
    }

    /// Every write fails with ENOSPC while set: a full disk.
    var diskIsFull: Bool {
        get { lock.withLock { full } }
        set { lock.withLock { full = newValue } }
    }

    var failNextWriteHalfway: Bool {
        get { lock.withLock { writeHalfway } }
        set { lock.withLock { writeHalfway = newValue } }
    }
    var failNextSync: Bool {
        get { lock.withLock { syncFails } }
        set { lock.withLock { syncFails = newValue } }
    }
    var failReads: Bool {
        get { lock.withLock { readFails } }
        set { lock.withLock { readFails = newValue } }
    }

    func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        if failReads {
            errno = EIO
            return -1
        }
        return system.read(descriptor, buffer, count)
    }

    /// Half the bytes, then ENOSPC on the next call: a disk that filled up mid-record.
    func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        if diskIsFull {
            errno = ENOSPC
            return -1
        }
        let halfway = lock.withLock { writeHalfway }
        guard halfway else { return system.write(descriptor, buffer, count) }
        if count > 1 {
            return system.write(descriptor, buffer, count / 2)
        }
        lock.withLock { writeHalfway = false }
        errno = ENOSPC
        return -1
    }

    func readAt(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int) -> Int {
        if failReads {
            errno = EIO
            return -1
        }
        return system.readAt(descriptor, buffer, count, offset)
    }

    func writeAt(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: Int) -> Int {
        if diskIsFull || lock.withLock({ growingIndexWritesFail }) && Self.path(of: descriptor).hasSuffix(".growing") {
            errno = ENOSPC
            return -1
        }
        return system.writeAt(descriptor, buffer, count, offset)
    }

    func synchronize(_ descriptor: Int32) -> Int32 {
        let fails = lock.withLock {
            defer { syncFails = false }
            return syncFails
        }
        if fails {
            errno = EIO
            return -1
        }
        return system.synchronize(descriptor)
    }

    func truncate(_ descriptor: Int32, _ length: Int) -> Int32 {
        system.truncate(descriptor, length)
    }
}
