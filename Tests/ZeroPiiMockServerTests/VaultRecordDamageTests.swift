import Foundation
import Testing
import ZeroPiiTestHelpers

@testable import ZeroPiiMockServer

/// A format 5 vault tells damage from the torn tail of a crash (``VaultLogReader``):
/// damage anywhere, the last record included, stops the vault with a message naming the
/// record's offset and leaves the file as it is; only what a crash leaves (a prefix of
/// the last record, perhaps followed by zeros) is dropped.
struct VaultRecordDamageTests {
    /// A format 5 record of `count` fingerprints whose bytes follow from `seed`. Its last
    /// checksum is chained to nothing in particular: the tests use only its prefixes.
    static func record(fingerprints count: Int, seed: UInt64 = 1) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var bytes = VaultFile.checkedRecordHeader(count: count)
        for _ in 0..<(count * VaultFile.fingerprintSize) { bytes.append(UInt8(truncatingIfNeeded: random.next())) }
        withUnsafeBytes(of: CRC32.checksum(bytes).bigEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// A vault of five records (1, 3, 17, 2 and 1 values), closed, and each record's
    /// offset and size.
    static func smallVault(at path: String) throws -> [(offset: Int, size: Int)] {
        var records: [(offset: Int, size: Int)] = []
        var offset = VaultFile.headerSize
        for (round, count) in [1, 3, 17, 2, 1].enumerated() {
            let vault = try TokenVault(path: path)
            _ = try vault.tokenize((0..<count).map { "round-\(round)-value-\($0)" })
            vault.close()
            let size = 8 + count * VaultFile.fingerprintSize + 4
            records.append((offset, size))
            offset += size
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == offset)
        return records
    }

    /// One flipped bit in any byte of any record (its count, the count's checksum, a
    /// fingerprint or the record's checksum) stops the vault at that record, and the
    /// file is left byte for byte as it was: the last record too, where formats 2 to 4
    /// would have cut it away as a torn tail.
    @Test func aFlippedBitInAnyRecordIsRefusedAndNothingIsCut() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let records = try Self.smallVault(at: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        for record in records {
            for byte in record.offset..<(record.offset + record.size) {
                var damaged = original
                damaged[byte] ^= 1 << UInt8(byte % 8)
                try damaged.write(to: URL(fileURLWithPath: path))
                let error = try #require(throws: VaultError.self, "byte \(byte)") { try TokenVault(path: path) }
                #expect(error == .damaged && error.detail == "byte \(record.offset)", "byte \(byte)")
                #expect(error.description.contains(path))
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged, "byte \(byte)")
            }
        }
        try original.write(to: URL(fileURLWithPath: path))
        #expect(try TokenVault(path: path).count == 24)
    }

    /// The count of the second-last record raised from 17 to 49, still within what one
    /// write makes: its record then seems to run past the end of the file, which formats
    /// 2 to 4 took for a torn tail, cutting it and the record after it away.
    @Test func aRaisedCountBeforeTheLastRecordIsRefused() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let records = try Self.smallVault(at: path).suffix(3)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let counted = records.first!.offset
        #expect(bytes[counted + 3] == 17)
        bytes[counted + 3] = 49
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
        #expect(error == .damaged && error.detail == "byte \(counted)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    /// Whatever a crash while appending a record can leave is dropped, and the values
    /// before it stay: every prefix of the record, alone (the file ends there) or with
    /// zeros after it up to and past the record's length (blocks the file system
    /// allocated but never filled). A disk writes whole sectors, and records start and
    /// end at multiples of 4 bytes, so zeros never start inside a checksum (the header's
    /// or the record's); a file whose zeros do is refused, as if that checksum were
    /// damaged.
    @Test func everyPrefixOfALastRecordIsATornTail() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        _ = try Self.smallVault(at: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let torn = Self.record(fingerprints: 3)
        for cut in 1..<torn.count {
            for zeros in [0, torn.count - cut, torn.count - cut + 100] {
                let bytes = whole + torn.prefix(cut) + Data(repeating: 0, count: zeros)
                try bytes.write(to: URL(fileURLWithPath: path))
                if zeros > 0 && (cut > torn.count - 4 || (5...7).contains(cut)) {
                    let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
                    #expect(error == .damaged && error.detail == "byte \(whole.count)", "cut \(cut), zeros \(zeros)")
                    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
                    continue
                }
                let vault = try TokenVault(path: path)
                #expect(vault.droppedBytes == cut + zeros, "cut \(cut), zeros \(zeros)")
                #expect(vault.count == 24)
                vault.close()
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == whole)
            }
        }
    }

    /// Zeros alone after the last record (a crash that allocated blocks and wrote none)
    /// are dropped too; a non-zero byte among them is damage.
    @Test func zerosAfterTheLastRecordAreATornTailButNotOtherBytes() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        _ = try Self.smallVault(at: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try (whole + Data(repeating: 0, count: 4096)).write(to: URL(fileURLWithPath: path))
        #expect(try TokenVault(path: path).droppedBytes == 4096)
        var garbage = Data(repeating: 0, count: 4096)
        garbage[4000] = 1
        try (whole + garbage).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
        #expect(error == .damaged && error.detail == "byte \(whole.count)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == whole + garbage)
    }

    /// A record whose header checks but claims more fingerprints than one write makes
    /// could only come from damage, and one whose checks pass with a count of zero too.
    @Test func aCountNoWriteMakesIsDamage() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        _ = try Self.smallVault(at: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        for count in [0, VaultFile.largestWrittenRecord + 1] {
            let bytes = whole + VaultFile.checkedRecordHeader(count: count) + Data(repeating: 0xAB, count: 64)
            try bytes.write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
            #expect(error == .damaged && error.detail == "byte \(whole.count)", "count \(count)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }

    /// Exactly 8 bytes after the last record that are no header (their checksum does not
    /// check, or they claim a count no write makes) are damage, not a torn tail: a crash
    /// leaves a prefix of a header, then zeros.
    @Test func aWholeHeaderThatIsNoneIsDamage() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        _ = try Self.smallVault(at: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let huge = VaultFile.checkedRecordHeader(count: 0xFFFF_FFFF)
        for tail in [Data([1, 2, 3, 4, 5, 6, 7, 8]), Data(repeating: 0xFF, count: 8), Data(huge)] {
            try (whole + tail).write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
            #expect(error == .damaged && error.detail == "byte \(whole.count)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == whole + tail)
        }
        // Fewer than 8 bytes that cannot begin a header, and a count no write makes
        // followed by zeros, are damage too.
        for tail in [Data("ABCDEFG".utf8), Data([0, 1]), Data([0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0])] {
            try (whole + tail).write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
            #expect(error == .damaged && error.detail == "byte \(whole.count)", "\(Array(tail))")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == whole + tail)
        }
        // A count whose checksum was never written, whole or in part, is a torn header.
        let header = Array(Self.record(fingerprints: 7).prefix(8))
        for tail in [Data([0, 0, 0, 7, 0, 0, 0, 0]), Data(header.prefix(6)), Data(header.prefix(3)), Data([0, 0])] {
            try (whole + tail).write(to: URL(fileURLWithPath: path))
            #expect(try TokenVault(path: path).droppedBytes == tail.count, "\(Array(tail))")
        }
    }

    /// Each record's checksum is chained to the one before (the header's for the first),
    /// so a record removed, repeated or moved stops the vault at that record even with
    /// no index to compare with.
    @Test func aRecordRemovedRepeatedOrMovedIsRefused() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let records = try Self.smallVault(at: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        func bytes(of record: (offset: Int, size: Int)) -> Data { original[record.offset..<(record.offset + record.size)] }
        let header = original.prefix(VaultFile.headerSize)
        let cases: [(name: String, file: Data, refusedAt: Int)] = [
            ("second removed", header + bytes(of: records[0]) + records[2...].reduce(Data()) { $0 + bytes(of: $1) }, records[1].offset),
            ("first repeated at the end", original + bytes(of: records[0]), original.count),
            (
                "first two swapped", header + bytes(of: records[1]) + bytes(of: records[0]) + records[2...].reduce(Data()) { $0 + bytes(of: $1) },
                records[0].offset
            ),
            ("last from another place", original.prefix(records[4].offset) + bytes(of: records[0]), records[4].offset),
        ]
        for (name, file, refusedAt) in cases {
            try? FileManager.default.removeItem(atPath: VaultIndex.path(forVault: path))
            try file.write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: VaultError.self, "\(name)") { try TokenVault(path: path) }
            #expect(error == .damaged && error.detail == "byte \(refusedAt)", "\(name)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == file, "\(name)")
            #expect(!FileManager.default.fileExists(atPath: VaultIndex.path(forVault: path)), "\(name): no index left behind")
        }
    }

    /// A log that no longer holds what its index saw when the vault last closed has lost
    /// acknowledged values, even when what is left reads as whole records or as a torn
    /// tail: the vault refuses to start and changes neither file; deleting the index, as
    /// the message says, goes on with what is left. (A count raised with its checksum is
    /// damage even before the index is asked: `aCountChangedWithItsChecksumIsRefusedWithoutAnIndex`.)
    @Test func aLogThatLostRecordsItsIndexSawIsRefused() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let records = try Self.smallVault(at: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let index = try Data(contentsOf: URL(fileURLWithPath: VaultIndex.path(forVault: path)))
        var lastZeroed = original
        lastZeroed.replaceSubrange(records[4].offset..., with: Data(count: records[4].size))
        let cases: [(name: String, file: Data)] = [
            ("cut at a record's end", original.prefix(records[3].offset)),
            ("cut inside a record", original.prefix(records[3].offset + 18)),
            ("the last record zeroed, as a crash would leave it", lastZeroed),
        ]
        for (name, file) in cases {
            try file.write(to: URL(fileURLWithPath: path))
            try index.write(to: URL(fileURLWithPath: VaultIndex.path(forVault: path)))
            let error = try #require(throws: VaultError.self, "\(name)") { try TokenVault(path: path) }
            #expect(error == .recordsLost, "\(name)")
            #expect(error.description.contains(path) && error.description.contains("delete \(VaultIndex.path(forVault: path))"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == file, "\(name)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: VaultIndex.path(forVault: path))) == index, "\(name)")
        }
        try FileManager.default.removeItem(atPath: VaultIndex.path(forVault: path))
        try original.prefix(records[3].offset).write(to: URL(fileURLWithPath: path))
        #expect(try TokenVault(path: path).count == 1 + 3 + 17)

        // Found from outside: an index rebuilt at open holds every fingerprint pending
        // and covers none of the log; its close still records how far the log reached.
        try original.write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: VaultIndex.path(forVault: path))
        let rebuilt = try TokenVault(path: path)
        #expect(rebuilt.indexRecovery == .rebuilt(.missing) && rebuilt.count == 24)
        rebuilt.close()
        try original.prefix(records[4].offset).write(to: URL(fileURLWithPath: path))
        #expect(throws: VaultError.recordsLost) { try TokenVault(path: path) }
    }

    /// A link planted at the index's name is never written through: the file it points
    /// to stays as it was, and the index becomes a file of its own.
    @Test func aLinkAtTheIndexNameIsNotFollowed() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let victim = path + ".victim"
        defer { try? FileManager.default.removeItem(atPath: victim) }
        _ = try Self.smallVault(at: path)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: victim)
        try FileManager.default.removeItem(atPath: VaultIndex.path(forVault: path))
        try FileManager.default.createSymbolicLink(atPath: VaultIndex.path(forVault: path), withDestinationPath: victim)
        let vault = try TokenVault(path: path)
        #expect(vault.count == 24 && vault.indexUnwritable == nil)
        vault.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == Data("precious".utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: victim)[.posixPermissions] as? Int == 0o644)
        let kind = try FileManager.default.attributesOfItem(atPath: VaultIndex.path(forVault: path))[.type] as? FileAttributeType
        #expect(kind == .typeRegular)
    }

    /// Without an index to compare with, a count raised together with its checksum, in a
    /// record before the last, makes that record seem to run past the end of the file:
    /// the header of the record after it, where the true count says, shows the damage.
    @Test func aCountChangedWithItsChecksumIsRefusedWithoutAnIndex() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        let records = try Self.smallVault(at: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for (record, raised) in [(records[2], UInt32(49)), (records[3], 1000), (records[0], 2)] {
            var changed = bytes
            changed.replaceSubrange(record.offset..<(record.offset + 8), with: VaultFile.checkedRecordHeader(count: Int(raised)))
            try? FileManager.default.removeItem(atPath: VaultIndex.path(forVault: path))
            try changed.write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: VaultError.self, "count \(raised)") { try TokenVault(path: path) }
            #expect(error == .damaged && error.detail == "byte \(record.offset)", "count \(raised)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == changed)
        }
    }

    /// A refused start leaves the folder as it found it: a link at the index's name stays
    /// a link, and no index is made.
    @Test func aRefusedStartLeavesALinkAtTheIndexNameAlone() throws {
        let path = TokenVaultTests.temporaryPath()
        defer { TokenVaultTests.removeVault(path) }
        _ = try Self.smallVault(at: path)
        let damaged = try Data(contentsOf: URL(fileURLWithPath: path)) + Data("gggggggggggggg".utf8)
        try damaged.write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: VaultIndex.path(forVault: path))
        try FileManager.default.createSymbolicLink(atPath: VaultIndex.path(forVault: path), withDestinationPath: "../elsewhere")
        #expect(throws: VaultError.damaged) { try TokenVault(path: path) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: VaultIndex.path(forVault: path)) == "../elsewhere")
    }
}
