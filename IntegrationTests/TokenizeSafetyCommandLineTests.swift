import Foundation
import Testing
import ZeroPiiTestHelpers

/// `zeropii tokenize` never passes personal data through in clear (rows longer than the
/// header, repeated column names, rows split over requests), never shows a value in a
/// message, leaves the output file alone when a run cannot start, and says in one line
/// what stopped a run. Each test runs the built binary with its own vault directory.
@Suite(.skippedUnderThreadSanitizer)
struct TokenizeSafetyCommandLineTests {
    /// Runs `zeropii tokenize` on the vault in `directory` with `arguments` after it.
    static func tokenize(_ arguments: [String], directory: String, input: Data? = nil) throws -> CommandLineTool.Finished {
        try CommandLineTool.run(["tokenize", "--data-dir", directory + "/data"] + arguments, input: input)
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    /// Bytes after the vault's last record (an unfinished write) were cut away by
    /// `tokenize` without a word, though `serve` said so; it now says so too, once, and
    /// the tokens are what they were.
    @Test func droppingAnUnfinishedWriteIsSaid() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let token = try TokenizeCommandLineTests.tokens(["ann@x.io"], directory: directory)[0]
        let vault = directory + "/data/vault.db"
        let size = try FileManager.default.attributesOfItem(atPath: vault)[.size] as! Int
        let handle = try #require(FileHandle(forWritingAtPath: vault))
        handle.seekToEndOfFile()
        handle.write(Data([0, 0, 3]))
        handle.closeFile()
        let finished = try Self.tokenize(["ann@x.io"], directory: directory)
        #expect(finished.status == 0)
        #expect(finished.output == token + "\n")
        let note =
            "zeropii: note: the vault \(vault) ended in 3 bytes of an unfinished write, never answered (a crash or a full disk); they were dropped"
        #expect(Self.lines(finished.errorOutput).filter { $0.contains("unfinished write") } == [note])
        #expect(try FileManager.default.attributesOfItem(atPath: vault)[.size] as! Int == size)
    }

    /// `1,Smith, John,john@x.io` under `id,name,email`: the email stood in a fourth
    /// column, was not tokenized and went out in clear, with status 0 even with
    /// `--strict`. Such a row is reported by line, left out and fails the run.
    @Test func aRowWithMoreFieldsThanTheHeaderIsLeftOutNotPassedThrough() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let csv = Data("id,name,email\n1,Smith, John,john@x.io\n2,Ann,ann@x.io\n".utf8)
        let token = try TokenizeCommandLineTests.tokens(["ann@x.io"], directory: directory)[0]

        let strict = try Self.tokenize(["--strict", "--csv", "-", "--columns", "email"], directory: directory, input: csv)
        #expect(strict.status == 1)
        #expect(strict.output == "id,name,email\n")
        let reported = "zeropii: line 2 has 4 fields, more than the header's 3 (an unquoted delimiter in a value?); --strict stops the run here"
        #expect(Self.lines(strict.errorOutput).first == reported)
        // Found from outside: on standard output, the stop went unsaid.
        #expect(
            Self.lines(strict.errorOutput).suffix(2) == [
                "zeropii: failed row on line 2", "zeropii: --strict stopped the run at line 2; nothing after it was read",
            ])

        let lenient = try Self.tokenize(["--quiet", "--csv", "-", "--columns", "email"], directory: directory, input: csv)
        #expect(lenient.status == 1)
        #expect(lenient.output == "id,name,email\n2,Ann,\(token)\n")
        #expect(
            Self.lines(lenient.errorOutput) == [
                "zeropii: line 2 has 4 fields, more than the header's 3 (an unquoted delimiter in a value?); the row was left out",
                "zeropii: failed row on line 2",
            ])
        for run in [strict, lenient] {
            #expect(!run.output.contains("john") && !run.errorOutput.contains("john") && !run.errorOutput.contains("Smith"))
        }
    }

    /// `id,email,email`: only the first `email` was tokenized; the second went out in
    /// clear. Every column with exactly that name is tokenized, with one note.
    @Test func everyColumnWithTheRequestedNameIsTokenized() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tokens = try TokenizeCommandLineTests.tokens(["a@x.io", "b@x.io"], directory: directory)
        let finished = try Self.tokenize(
            ["--quiet", "--csv", "-", "--columns", "email"], directory: directory, input: Data("id,email,email\n1,a@x.io,b@x.io\n".utf8))
        #expect(finished.status == 0)
        #expect(finished.output == "id,email,email\n1,\(tokens[0]),\(tokens[1])\n")
        #expect(finished.errorOutput == "zeropii: note: 2 columns (2, 3) are named 'email'; all of them are tokenized\n")
    }

    /// A file without a header has data on its first line, and the messages listed it:
    /// "its columns are: '1', 'alice@example.com', '+1 555 0100'". A cell that looks
    /// like data is never shown, and a first line made mostly of such cells is called data.
    @Test func messagesNeverShowAHeaderCellThatLooksLikeData() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "1,alice@example.com,+1 555 0100\n2,bob@example.com,+1 555 0101\n".write(
            toFile: directory + "/nohdr.csv", atomically: true, encoding: .utf8)
        let noHeader = try Self.tokenize(["--csv", directory + "/nohdr.csv", "--columns", "email"], directory: directory)
        #expect(noHeader.status == 2)
        #expect(
            noHeader.errorOutput
                == "zeropii: the CSV has no column 'email'\nthe first line looks like data rather than a header (2 of 3 cells); --csv needs a first line that names the columns, or --no-header with --columns by position (1,3)\n"
        )

        // Old Mac line endings: the header is the first line, not the whole file.
        try "email\ra@x.io\rb@x.io\r".write(toFile: directory + "/cr.csv", atomically: true, encoding: .utf8)
        let carriageReturns = try Self.tokenize(["--csv", directory + "/cr.csv", "--columns", "mail"], directory: directory)
        #expect(carriageReturns.status == 2)
        #expect(
            carriageReturns.errorOutput
                == "zeropii: the CSV has no column 'mail'; did you mean 'email'?\n\(CSVColumnsHint.cells(1))\n")

        // A header with one data-like cell: named by position; the suggestion never offers it.
        try "id,email,bob@x.io\n1,a@x.io,c@x.io\n".write(toFile: directory + "/odd.csv", atomically: true, encoding: .utf8)
        let odd = try Self.tokenize(["--csv", directory + "/odd.csv", "--columns", "bob@x.ie"], directory: directory)
        #expect(odd.status == 2)
        // Neither the cell nor the name given is shown: both look like data.
        #expect(odd.errorOutput == "zeropii: the CSV has no column (a name that looks like data, not shown)\n\(CSVColumnsHint.cells(3))\n")
        for run in [noHeader, carriageReturns, odd] {
            #expect(!run.errorOutput.contains("alice") && !run.errorOutput.contains("555") && !run.errorOutput.contains("a@x.io"))
            #expect(!run.errorOutput.contains("bob@x.io"))
        }
    }

    /// `--output prev.csv` was emptied by a run that failed before any row (a vault that
    /// cannot open, an unknown column). A run that does not start leaves the file as it
    /// was, and creates none; one that runs replaces it.
    @Test func aRunThatCannotStartLeavesTheOutputFileAlone() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/later", withIntermediateDirectories: true)
        try Data("ZPVAULT9".utf8 + [UInt8](repeating: 0, count: 56)).write(to: URL(fileURLWithPath: directory + "/later/vault.db"))
        try "id,email\n1,a@x.io\n".write(toFile: directory + "/in.csv", atomically: true, encoding: .utf8)
        let previous = directory + "/prev.csv"
        let precious = "precious, and longer than the output that will replace it\n"
        try precious.write(toFile: previous, atomically: true, encoding: .utf8)

        let csv = ["--csv", directory + "/in.csv", "--columns", "email"]
        let runs: [(arguments: [String], status: Int32)] = [
            (["--data-dir", directory + "/later"] + csv, 1),
            (["--data-dir", directory + "/later", "a@x.io"], 1),
            (["--data-dir", directory + "/later", "-"], 1),
            (["--data-dir", directory + "/data", "--csv", directory + "/in.csv", "--columns", "nosuch"], 2),
        ]
        for run in runs {
            for output in [previous, directory + "/new.csv"] {
                let finished = try CommandLineTool.run(
                    ["tokenize", "--quiet"] + run.arguments + ["--output", output], input: Data("a@x.io\n".utf8))
                #expect(finished.status == run.status, "\(run.arguments): \(finished.errorOutput)")
            }
            #expect(try String(contentsOfFile: previous, encoding: .utf8) == precious, "\(run.arguments)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/new.csv"), "\(run.arguments)")
        }

        let token = try TokenizeCommandLineTests.tokens(["a@x.io"], directory: directory)[0]
        let replaced = try Self.tokenize(["--quiet"] + csv + ["--output", previous], directory: directory)
        #expect(replaced.status == 0)
        #expect(try String(contentsOfFile: previous, encoding: .utf8) == "id,email\n1,\(token)\n")
        // An empty input's output is empty too.
        #expect(FileManager.default.createFile(atPath: directory + "/empty.csv", contents: Data()))
        let empty = try Self.tokenize(
            ["--quiet", "--csv", directory + "/empty.csv", "--columns", "email", "--output", previous], directory: directory)
        #expect(empty.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: previous)) == Data())
    }

    /// 1001 columns to tokenize failed every row: "a batch holds at most 1000 values;
    /// this one had 1001". A row's values are split across requests and put back in order.
    @Test func aRowWithMoreValuesThanARequestHoldsIsSplitAndPutBackInOrder() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let columns = (0..<1001).map { "c\($0)" }
        let rows = [(0..<1001).map { "v\($0)@x.io" }, (0..<1001).map { "w\($0)@x.io" }]
        let csv = ([columns] + rows).map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
        try csv.write(toFile: directory + "/wide.csv", atomically: true, encoding: .utf8)

        let finished = try Self.tokenize(
            ["--quiet", "--csv", directory + "/wide.csv", "--columns", columns.joined(separator: ",")], directory: directory)
        #expect(finished.status == 0, "\(finished.errorOutput.prefix(500))")
        let tokens = try TokenizeCommandLineTests.tokens(rows[0] + rows[1], directory: directory)
        let expected = [columns, Array(tokens[0..<1001]), Array(tokens[1001...])].map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
        #expect(finished.output == expected)
    }

    /// `zeropii help tokenize` promised a summary on standard error, and `tokenize -`
    /// printed none.
    @Test func valuesFromStandardInputEndWithTheSummary() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = Data("a@x.io\n\nb@x.io\n".utf8)
        let finished = try Self.tokenize(["-"], directory: directory, input: input)
        #expect(finished.status == 0)
        let stderr = Self.lines(finished.errorOutput)
        #expect(stderr.count == 3 && stderr[0].hasPrefix("zeropii: no --api-url given; using the embedded mock server"), "\(stderr)")
        #expect(stderr.count == 3 && stderr[1] + "\n" == TokenizeCommandLineTests.newVaultLine(directory + "/data"), "\(stderr)")
        #expect(
            stderr.last?.hasPrefix(
                "zeropii: 3 lines, 2 values (2 new tokens, 0 existing), 1 blank line passed through, 0 retries, 0 lines failed, ") == true,
            "\(stderr)")
        #expect(try Self.tokenize(["--quiet", "-"], directory: directory, input: input).errorOutput == "")
        let help = try CommandLineTool.run(["help", "tokenize"]).output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("the summary (after --csv, '-' and --values-from) to standard error"))
    }

    /// `the embedded server could not start: the server could not start: …`, and a
    /// `--data-dir` that is a file "could not be created".
    @Test func startUpErrorsSayItOnceAndNameAFileThatIsNoDirectory() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/later", withIntermediateDirectories: true)
        try Data("ZPVAULT9".utf8 + [UInt8](repeating: 0, count: 56)).write(to: URL(fileURLWithPath: directory + "/later/vault.db"))
        let later = try CommandLineTool.run(["tokenize", "--data-dir", directory + "/later", "x"])
        #expect(later.status == 1)
        #expect(later.errorOutput.hasPrefix("zeropii: the embedded server could not start: the vault file \(directory)/later/vault.db "))
        #expect(later.errorOutput.components(separatedBy: "could not start").count == 2, "\(later.errorOutput)")

        #expect(FileManager.default.createFile(atPath: directory + "/file", contents: Data("x".utf8)))
        let file = try CommandLineTool.run(["tokenize", "--data-dir", directory + "/file", "x"])
        #expect(file.status == 1)
        #expect(
            file.errorOutput
                == "zeropii: the data directory \(directory)/file is a file, not a directory; give --data-dir a directory\n"
        )
    }

    /// `--wire plaintext` to another machine over `http://` sent values in clear
    /// without a word; the help says "TLS only". It is a usage error, as is plain http to
    /// another machine with any profile (the v1 envelope's keys come from the access
    /// token, which travels in the Authorization header), unless `--insecure-http`.
    @Test func plaintextOverPlainHTTPToAnotherMachineIsRefused() throws {
        let finished = try CommandLineTool.run(
            ["tokenize", "--wire", "plaintext", "--api-url", "http://api.example.com/", "alice@example.com"],
            environment: ["ZEROPII_ACCESS_TOKEN": "t"])
        #expect(finished.status == 2)
        #expect(
            Self.lines(finished.errorOutput) == [
                "zeropii: --api-url http://api.example.com is plain http to another machine, where anyone on the network could read the values: use https, or add --insecure-http on a test network",
                "run 'zeropii help tokenize' for the options",
            ])
    }

    /// A vault that could not write (a full disk) gave one `the server failed (HTTP
    /// 500) [vault_error]` per batch and never the cause. The cause is said once, with
    /// the vault's file and the system's reason, and the run stops; the rows before it
    /// are written. The disk is "full" through a file-size limit (`ulimit -f`), which
    /// makes the vault's writes fail with EFBIG.
    @Test func aVaultThatCannotWriteIsOneLineWithTheFileAndTheReason() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let rows = (0..<80_000).map { "\($0),user\($0)@example.com" }.joined(separator: "\n")
        try ("id,email\n" + rows + "\n").write(toFile: directory + "/big.csv", atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // 2060 blocks of 512 bytes: the vault opens, then fails as it grows. SIGXFSZ is
        // ignored so that the write fails instead of ending the process.
        process.arguments = [
            "-c", "trap '' XFSZ; ulimit -f 2060; exec \"$0\" tokenize --data-dir \"$1\" --csv \"$2\" --columns email",
            CommandLineTool.executable.path, directory + "/data", directory + "/big.csv",
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let collected = Collected()
        Thread.detachNewThread { collected.finish(errors.fileHandleForReading.readDataToEndOfFile()) }
        let written = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = Self.lines(String(decoding: collected.wait(), as: UTF8.self))
        process.waitUntilExit()

        #expect(process.terminationStatus == 1)
        #expect(stderr.count == 3, "\(stderr.prefix(5))")
        #expect(stderr.first?.hasPrefix("zeropii: no --api-url given") == true)
        #expect(stderr.dropFirst().first.map { $0 + "\n" } == TokenizeCommandLineTests.newVaultLine(directory + "/data"))
        let line = try #require(stderr.last)
        #expect(line.hasPrefix("zeropii: the vault file \(directory)/data/vault.db"), "\(line)")
        #expect(line.contains(" could not be written (File too large), so the run stopped; line "), "\(line)")
        #expect(!line.contains("HTTP 500") && !line.contains("vault_error") && !line.contains("@example.com"))
        // The rows before the line named were tokenized and written, in order.
        let stoppedAt = try #require(Int(line.split(separator: " ").last { Int($0) != nil } ?? ""))
        let outputLines = Self.lines(written)
        #expect(outputLines.count == stoppedAt - 1)
        #expect(outputLines.dropFirst().enumerated().allSatisfy { $1.hasPrefix("\($0),") && !$1.contains("user\($0)@") })
    }
}

/// A vault is never made silently, and never where a typo would put it.
@Suite(.skippedUnderThreadSanitizer)
struct NewVaultCommandLineTests {
    @Test func makingAVaultSaysSoOnceEvenWhenQuiet() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", directory + "/data", "a@x.io"])
        #expect(first.status == 0)
        #expect(first.errorOutput == TokenizeCommandLineTests.newVaultLine(directory + "/data"))
        let second = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", directory + "/data", "a@x.io"])
        #expect(second.status == 0 && second.errorOutput == "" && second.output == first.output)
        // Another HOME (cron, sudo, a container) is another vault, and says so.
        try FileManager.default.createDirectory(atPath: directory + "/home", withIntermediateDirectories: false)
        let otherHome = try CommandLineTool.run(["tokenize", "--quiet", "a@x.io"], environment: ["HOME": directory + "/home"])
        #expect(otherHome.status == 0 && otherHome.output != first.output)
        #expect(otherHome.errorOutput == TokenizeCommandLineTests.newVaultLine(directory + "/home/.zeropii"))
    }

    @Test func aDataDirectoryWhoseParentIsMissingIsAnErrorNotANewTree() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let typo = directory + "/dta/vault-dir"
        let run = try CommandLineTool.run(["tokenize", "--data-dir", typo, "a@x.io"])
        #expect(run.status == 1)
        #expect(
            run.errorOutput
                == "zeropii: the data directory \(typo) cannot be made: \(directory)/dta does not exist (a typo?); "
                + "add --create-data-dir if a new vault belongs there\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/dta"))
        #expect(run.output.isEmpty)
    }

    @Test func aDataDirectoryThatCannotBeMadeSaysWhy() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Its parent is a file: the system's reason is passed on.
        #expect(FileManager.default.createFile(atPath: directory + "/plain", contents: Data("x".utf8)))
        let run = try CommandLineTool.run(["tokenize", "--data-dir", directory + "/plain/data", "a@x.io"])
        #expect(run.status == 1)
        #expect(run.errorOutput == "zeropii: the data directory \(directory)/plain/data could not be created: not a directory\n")
    }
}
