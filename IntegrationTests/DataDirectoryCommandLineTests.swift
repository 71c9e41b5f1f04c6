import Foundation
import Testing
import ZeroPiiTestHelpers

/// Where the embedded server's vault goes: never somewhere the user did not mean, with one
/// line that says what to change when it cannot be used.
@Suite(.skippedUnderThreadSanitizer)
struct DataDirectoryCommandLineTests {
    /// A `--data-dir` whose parent is missing is refused (a typo would make a new vault
    /// with other tokens) unless `--create-data-dir` asks for the parents.
    @Test func aMissingParentNeedsTheFlag() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let nested = directory + "/a/b/vault"
        let refused = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", nested, "x@y.io"])
        #expect(refused.status == 1)
        #expect(
            refused.errorOutput
                == "zeropii: the data directory \(nested) cannot be made: \(directory)/a/b does not exist (a typo?); add --create-data-dir if a new vault belongs there\n"
        )
        #expect(!FileManager.default.fileExists(atPath: directory + "/a"))
        let made = try CommandLineTool.run(["tokenize", "--quiet", "--create-data-dir", "--data-dir", nested, "x@y.io"])
        #expect(made.status == 0, "\(made.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: nested + "/vault.db"))
        #expect(made.errorOutput == TokenizeCommandLineTests.newVaultLine(nested))
        let alone = try CommandLineTool.run(["tokenize", "--quiet", "--create-data-dir", "x@y.io"])
        #expect(alone.status == 2)
        #expect(alone.errorOutput.hasPrefix("zeropii: --create-data-dir goes with --data-dir DIR\n"))
    }

    /// The default `~/.zeropii` under a `HOME` that does not exist (cron, a container) or
    /// that holds a file of that name: one line naming HOME and what to do; nothing made.
    @Test func aHomeThatCannotHoldTheVaultIsNamed() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = directory + "/nobody/"
        let noHome = try CommandLineTool.run(["tokenize", "--quiet", "x@y.io"], environment: ["HOME": missing])
        #expect(noHome.status == 1)
        #expect(
            noHome.errorOutput
                == "zeropii: the default data directory \(directory)/nobody/.zeropii cannot be made: HOME (\(missing)) does not exist; set HOME to your home folder, or give --data-dir DIR\n"
        )
        #expect(!FileManager.default.fileExists(atPath: missing))
        let demo = try CommandLineTool.run(["demo"], environment: ["HOME": missing])
        #expect(demo.status == 1)
        #expect(!FileManager.default.fileExists(atPath: missing), "demo made folders under a HOME that does not exist")

        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: directory + "/.zeropii"))
        let file = try CommandLineTool.run(["tokenize", "--quiet", "x@y.io"], environment: ["HOME": directory])
        #expect(file.status == 1)
        #expect(
            file.errorOutput
                == "zeropii: the default data directory \(directory)/.zeropii is a file, not a directory; move that file away, or give --data-dir DIR\n"
        )
    }

    /// Found from outside: a data folder or file named by one character (`q`, `é`) made
    /// Foundation's path arithmetic stop the process (SIGILL) before the vault was made,
    /// and `serve` left a temporary link beside the file.
    @Test func oneCharacterNamesAreUsable() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["q", "é"] {
            let made = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", name, "x@y.io"], directory: directory)
            #expect(made.status == 0, "\(name): \(made.errorOutput)")
            #expect(FileManager.default.fileExists(atPath: directory + "/" + name + "/vault.db"))
            let again = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", name, "x@y.io"], directory: directory)
            #expect(again.status == 0 && again.output == made.output, "\(name)")
        }
        let (server, output, errors) = try CommandLineTool.start(["serve", "--port", "0", "--data-file", "s"], directory: directory)
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        #expect(blockUntil(atMost: 60) { output.text.contains("listening") || !server.isRunning }, "\(errors.text)")
        kill(server.processIdentifier, SIGTERM)
        server.waitForExit()
        #expect(server.terminationReason == .exit && server.terminationStatus == 0, "\(errors.text)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["q", "s", "s.index", "é"], "nothing else left beside the vault")
    }

    /// Found from outside: a line break in a folder's name went raw into messages, so
    /// one message could pass for two in a log. Every control character of a name is
    /// shown as `?`, and every line on standard error is the tool's own.
    @Test func aLineBreakInAFolderNameCannotForgeALine() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let folder = directory + "/n2\nzeropii: forged"
        let run = try CommandLineTool.run(["tokenize", "--data-dir", folder, "x@y.io"])
        #expect(run.status == 0, "\(run.errorOutput)")
        let lines = run.errorOutput.split(separator: "\n")
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("zeropii: ") && !$0.hasPrefix("zeropii: forged") })
        #expect(run.errorOutput.contains("/n2?zeropii: forged/vault.db"))
    }
}
