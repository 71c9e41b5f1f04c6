import Foundation
import Testing
import ZeroPiiTestHelpers

/// Options given twice, through the built binary: `--columns` adds up, so no column is
/// left in clear; any other option of any command given twice stops with exit status 2
/// and one line naming it, before a server starts or a file is written.
@Suite(.skippedUnderThreadSanitizer)
struct RepeatedOptionCommandLineTests {
    @Test func twoColumnsOptionsTokenizeBothColumns() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let csv = Data("email,phone\nann@x.io,+1 555 0100\n".utf8)
        let run = try CommandLineTool.run(
            ["tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", "-", "--columns", "email", "--columns", "phone"], input: csv)
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0] == "email,phone")
        #expect(!run.output.contains("ann@x.io") && !run.output.contains("555 0100"))
    }

    @Test func anOptionGivenTwiceIsAUsageErrorThatNamesIt() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = directory + "/a.txt"
        let second = directory + "/b.txt"
        let run = try CommandLineTool.run(
            ["tokenize", "--data-dir", directory + "/data", "--output", first, "--output", second, "ann@x.io"])
        #expect(run.status == 2)
        #expect(run.errorOutput.hasPrefix("zeropii: --output is given more than once; give it once\n"))
        #expect(!FileManager.default.fileExists(atPath: first) && !FileManager.default.fileExists(atPath: second))
        #expect(!FileManager.default.fileExists(atPath: directory + "/data"), "no vault is made for a run that cannot start")
    }

    /// Every option of `serve` and `demo` that may be given once, twice; an unknown option
    /// after them makes a run whose repeat went unnoticed stop too, with another message.
    @Test(arguments: ["serve", "demo"])
    func everyServeAndDemoOptionThatMayBeGivenOnceIsRefusedTwice(command: String) throws {
        // Each with a value it accepts (nil for a flag), so that only the repeat can stop it.
        let options: [(String, String?)] =
            command == "serve"
            ? [
                ("--host", "127.0.0.1"), ("--port", "0"), ("--data-file", "vault.db"), ("--token-ttl", "60"), ("--demo-client", nil),
                ("--log-requests", nil), ("--allow-any-token", nil), ("--admin", nil),
            ] : [("--data-dir", "data"), ("--wire", "v1")]
        for (option, value) in options {
            let twice = value.map { [option, $0, option, $0] } ?? [option, option]
            let run = try CommandLineTool.run([command] + twice + ["--no-such-option"])
            #expect(run.status == 2, "\(command) \(option)")
            #expect(
                run.errorOutput.hasPrefix("zeropii: \(option) is given more than once; give it once\n"), "\(command) \(option): \(run.errorOutput)")
        }
    }

    @Test func serveAddsUpRepeatedListsOfWireProfiles() throws {
        // Two --wire lists are one set; a bad second list is still checked.
        let run = try CommandLineTool.run(["serve", "--wire", "v1", "--wire", "nonsense"])
        #expect(run.status == 2)
        #expect(run.errorOutput.contains("--wire takes a comma-separated list"))
    }
}
