import Foundation
import Testing

@testable import ZeroPiiMockServer

struct TokenVaultTests {
    static func temporaryPath() -> String {
        NSTemporaryDirectory() + "zeropii-vault-\(UUID().uuidString).db"
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
        defer { try? FileManager.default.removeItem(atPath: path) }
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
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tokens = try TokenVault(path: path).tokenize(["kept-1", "kept-2"])
        let sizeBefore = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        // A crash in the middle of a record: its count and half its fingerprints.
        let handle = FileHandle(forWritingAtPath: path)!
        handle.seekToEndOfFile()
        handle.write(Data([0, 0, 0, 3]) + Data(repeating: 0xAB, count: 20))
        handle.closeFile()
        let reopened = try TokenVault(path: path)
        #expect(reopened.droppedBytes == 24)
        #expect(reopened.count == 2)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int == sizeBefore)
        #expect(try reopened.tokenize(["kept-1"])[0].token == tokens[0].token)
        #expect(try TokenVault(path: path).count == 2)
    }

    @Test func aCorruptedRecordEndsTheLog() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try TokenVault(path: path).tokenize(["first"])
        _ = try TokenVault(path: path).tokenize(["second"])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 10] ^= 0xFF  // inside the second record
        try bytes.write(to: URL(fileURLWithPath: path))
        let reopened = try TokenVault(path: path)
        #expect(reopened.count == 1)
        #expect(try reopened.tokenize(["first"])[0].exists)
    }

    @Test func aFileThatIsNotAVaultIsRefused() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("not a vault at all, just some text that is long enough".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: VaultError.self) { try TokenVault(path: path) }
    }
}
