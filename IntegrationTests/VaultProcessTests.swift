import Foundation
import Testing
import ZeroPiiMockServer
import ZeroPiiTestHelpers

/// The vault between processes: `zeropii` runs started together on a fresh default vault
/// agree on one key, and `zeropii serve` refuses a vault another process holds.
@Suite(.skippedUnderThreadSanitizer)
struct VaultProcessTests {
    static let values = ["alice42", "Дмитрий", "山田太郎", "42", "-3.5E-7"]

    /// Starts `zeropii tokenize` on the default vault under `home`.
    static func startTokenize(home: String) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = CommandLineTool.executable
        process.arguments = ["tokenize", "--quiet", "--"] + values
        process.environment = ["HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, output, errors)
    }

    /// Fifty fresh vaults, two first runs each, started together (five vaults at a time):
    /// every run succeeds, and the two runs of a vault print the same tokens.
    @Test(.skippedUnderThreadSanitizer) func twoFirstRunsStartedTogetherAgreeOnOneKeyFiftyTimes() throws {
        let root = NSTemporaryDirectory() + "zeropii-pairs-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        var tokenSets = Set<[String]>()
        for batch in 0..<10 {
            let homes = (0..<5).map { "\(root)/\(batch)-\($0)" }
            for home in homes { try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true) }
            let runs = try homes.flatMap { home in [try Self.startTokenize(home: home), try Self.startTokenize(home: home)] }
            var outputs: [[String]] = []
            var madeTheVault: [Bool] = []
            for (process, output, errors) in runs {
                let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "\(complaints)")
                // A run that found the vault held says so once.
                #expect(complaints.components(separatedBy: "waiting for it").count <= 2)
                madeTheVault.append(complaints.contains("made a new vault"))
                outputs.append(printed.split(separator: "\n").map(String.init))
            }
            for pair in 0..<homes.count {
                // Only the run that made the vault says so, not one that waited for it.
                #expect([madeTheVault[2 * pair], madeTheVault[2 * pair + 1]].filter { $0 }.count == 1, "vault \(homes[pair])")
                #expect(outputs[2 * pair].count == Self.values.count)
                #expect(outputs[2 * pair] == outputs[2 * pair + 1], "vault \(homes[pair])")
                tokenSets.insert(outputs[2 * pair])
                let files = try FileManager.default.contentsOfDirectory(atPath: homes[pair] + "/.zeropii")
                #expect(files.sorted() == ["vault.db", "vault.db.index"])
                let folder = try FileManager.default.attributesOfItem(atPath: homes[pair] + "/.zeropii")[.posixPermissions] as? Int
                #expect(folder == 0o700)
            }
        }
        // Fifty vaults, fifty keys.
        #expect(tokenSets.count == 50)
    }

    /// Found from outside: a vault file others could read was used silently. Both commands
    /// make it owner-only and say so, once, on standard error; the tokens do not change.
    @Test func aVaultOthersCanReadIsMadeOwnerOnlyWithANote() throws {
        let directory = NSTemporaryDirectory() + "zeropii-mode-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", directory, "a@x.io"])
        #expect(first.status == 0 && first.errorOutput == TokenizeCommandLineTests.newVaultLine(directory))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: directory + "/vault.db")
        let second = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", directory, "a@x.io"])
        #expect(second.status == 0 && second.output == first.output)
        #expect(
            second.errorOutput
                == "zeropii: the vault \(directory)/vault.db could be read or changed by other users (mode 0644); it holds the token key, so it is now owner-only (0600)\n"
        )
        #expect(try FileManager.default.attributesOfItem(atPath: directory + "/vault.db")[.posixPermissions] as? Int == 0o600)
        let third = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", directory, "a@x.io"])
        #expect(third.errorOutput.isEmpty)
    }

    @Test func serveOnAVaultHeldByAnotherProcessExitsWithAMessage() throws {
        let path = NSTemporaryDirectory() + "zeropii-held-\(UUID().uuidString).db"
        defer { for file in [path, path + ".index"] { try? FileManager.default.removeItem(atPath: file) } }
        let holder = try TokenVault(path: path)
        defer { holder.close() }
        let finished = try CommandLineTool.run(["serve", "--port", "0", "--data-file", path])
        #expect(finished.status != 0)
        #expect(finished.errorOutput.contains(path) && finished.errorOutput.contains("in use by another zeropii process"))
    }

    @Test func tokenizeWaitsForAHeldDefaultVaultAndSaysSoOnce() throws {
        let home = NSTemporaryDirectory() + "zeropii-wait-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/.zeropii", withIntermediateDirectories: true)
        let holder = try TokenVault(path: home + "/.zeropii/vault.db")
        let expected = try holder.tokenize(Self.values).map(\.token)
        let (process, output, errors) = try Self.startTokenize(home: home)
        // The run announces the wait before it blocks; the holder then lets go.
        let announced = errors.fileHandleForReading.read { String(decoding: $0, as: UTF8.self).contains("waiting for it") }
        holder.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let rest = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let complaints = String(decoding: announced, as: UTF8.self) + rest
        #expect(complaints.components(separatedBy: "waiting for it").count == 2)
        #expect(printed.split(separator: "\n").map(String.init) == expected)
    }
}
