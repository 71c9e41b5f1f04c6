import Foundation
import Testing
import ZeroPiiTestHelpers

/// `zeropii tokenize` on a disk that is full, made real: a small tmpfs, mounted where the
/// machine allows it (root, or a user allowed to mount), filled to the last byte.
@Suite(.skippedUnderThreadSanitizer, .enabled(if: SmallFileSystem.canMount, "cannot mount a tmpfs here"))
struct FullDiskCommandLineTests {
    static let held = ["alice@example.com", "Анна Петрова", "+1 (555) 123-4567", "42"]

    /// A vault whose index must be rebuilt (here: it was removed) while the disk is full
    /// starts anyway, with one line that says the index is held in memory: every value
    /// it holds gets its token, new values that need more room than the vault file's last
    /// block has are refused with a clear message, and once there is room again they are
    /// taken and the index is back on disk.
    @Test func aStartOnAFullDiskServesWhatTheVaultHolds() throws {
        let disk = try SmallFileSystem(megabytes: 2)
        defer { disk.unmount() }
        let data = disk.path + "/data"
        let first = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", data, "--"] + Self.held)
        #expect(first.status == 0, "\(first.errorOutput)")
        try FileManager.default.removeItem(atPath: data + "/vault.db.index")
        try disk.fill()

        let served = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", data, "--"] + Self.held)
        #expect(served.status == 0, "\(served.errorOutput)")
        #expect(served.output == first.output)
        let lines = served.errorOutput.split(separator: "\n")
        #expect(lines.count == 1, "\(served.errorOutput)")
        #expect(lines.first?.contains("No space left on device") == true)
        #expect(
            lines.first?.contains("the 4 values it holds are served, and new values are taken only while the vault file can still be written") == true
        )

        // A thousand new values: a 16 KB record, more than the file's last block holds.
        let newValues = (0..<1000).map { "new-\($0)@example.com" }
        let refused = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", data, "--"] + newValues)
        #expect(refused.status != 0)
        #expect(refused.errorOutput.contains("No space left on device"), "\(refused.errorOutput)")
        #expect(!refused.errorOutput.contains("new-0@example.com"))

        disk.emptyFiller()
        let taken = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", data, "--"] + newValues)
        #expect(taken.status == 0, "\(taken.errorOutput)")
        #expect(taken.output.split(separator: "\n").count == 1000)
        #expect(FileManager.default.fileExists(atPath: data + "/vault.db.index"))
        let again = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", data, "--"] + Self.held)
        #expect(again.status == 0 && again.errorOutput.isEmpty, "\(again.errorOutput)")
        #expect(again.output == first.output)
    }
}

/// A tmpfs of a few megabytes in a temporary folder, and a file that fills it.
struct SmallFileSystem {
    let path: String

    /// Whether a tmpfs can be mounted here: tried once, on a throwaway folder.
    static let canMount: Bool = {
        guard let disk = try? SmallFileSystem(megabytes: 1) else { return false }
        disk.unmount()
        return true
    }()

    init(megabytes: Int) throws {
        path = NSTemporaryDirectory() + "zeropii-small-disk-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path]) == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Writes a file until the file system has no room left.
    func fill() throws {
        _ = FileManager.default.createFile(atPath: path + "/filler", contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path + "/filler"))
        defer { try? handle.close() }
        let block = Data(repeating: 0xEE, count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        // The last partial block: byte by byte until even that fails.
        while (try? handle.write(contentsOf: Data([0xEE]))) != nil {}
    }

    /// Gives the filler's space back.
    func emptyFiller() {
        try? FileManager.default.removeItem(atPath: path + "/filler")
    }

    func unmount() {
        _ = Self.run("/bin/umount", [path])
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
