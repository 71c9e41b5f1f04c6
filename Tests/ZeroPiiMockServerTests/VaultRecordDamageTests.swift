import Foundation
import Testing
import ZeroPiiTestHelpers

@testable import ZeroPiiMockServer

/// A format 5 vault tells damage from the torn tail of a crash (``VaultLogReader``):
/// damage anywhere, the last record included, stops the vault with a message naming the
/// record's offset and leaves the file as it is; only what a crash leaves (a prefix of
/// the last record, perhaps followed by zeros) is dropped.
struct VaultRecordDamageTests {
    /// A format 5 record of `count` fingerprints whose bytes follow from `seed`.
    static func record(fingerprints count: Int, seed: UInt64 = 1) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt32(count).bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: CRC32.checksum(bytes).bigEndian) { bytes.append(contentsOf: $0) }
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
    /// end at multiples of 4 bytes, so zeros never start inside a record's last 4 bytes
    /// (its checksum); a file whose zeros do is refused, as if its checksum were damaged.
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
                if zeros > 0 && cut > torn.count - 4 {
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
            var header: [UInt8] = []
            withUnsafeBytes(of: UInt32(count).bigEndian) { header.append(contentsOf: $0) }
            withUnsafeBytes(of: CRC32.checksum(header).bigEndian) { header.append(contentsOf: $0) }
            let bytes = whole + header + Data(repeating: 0xAB, count: 64)
            try bytes.write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: VaultError.self) { try TokenVault(path: path) }
            #expect(error == .damaged && error.detail == "byte \(whole.count)", "count \(count)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }
}
