import Foundation
import Testing
import ZeroPiiMockServer
import ZeroPiiSDK
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `zeropii` as people run it from a shell: pipes, spreadsheet CSVs, standard input,
/// unreadable files and the messages for what goes wrong. Each test runs the built
/// binary with its own vault directory.
@Suite(.skippedUnderThreadSanitizer)
struct TokenizeCommandLineTests {
    /// A fresh directory, removed by the caller.
    /// The line a run prints when it makes the vault in `directory` (a new key: never silent).
    static func newVaultLine(_ directory: String) -> String {
        "zeropii: made a new vault \(directory)/vault.db; its tokens differ from those of any other vault "
            + "(another --data-dir, HOME or machine has its own)\n"
    }

    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "zeropii-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The tokens the vault in `directory` holds for `values`, from `zeropii tokenize VALUE...`.
    static func tokens(_ values: [String], directory: String) throws -> [String] {
        let finished = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", directory + "/data"] + values)
        try #require(finished.status == 0, "\(finished.errorOutput)")
        return finished.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Found from outside: a line over 4096 bytes in `tokenize -` was left out, so every
    /// later token stood on the line of the value before it. Line N of the output now
    /// always answers line N of the input; the refused line is empty there.
    @Test func valuesThatCannotBeSentKeepTheirLine() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tokens = try Self.tokens(["a@x.io", "b@x.io", "c@x.io"], directory: directory)
        let long = String(repeating: "x", count: 5000)
        let lines = try CommandLineTool.run(
            ["tokenize", "--quiet", "--data-dir", directory + "/data", "-"], input: Data("a@x.io\n\(long)\nb@x.io\n\nc@x.io\n".utf8))
        #expect(lines.status == 1)
        #expect(lines.output == "\(tokens[0])\n\n\(tokens[1])\n\n\(tokens[2])\n")
        #expect(lines.errorOutput.contains("zeropii: line 2 is longer than 4096 bytes; its output line is left empty"))
        #expect(!lines.errorOutput.contains("xxxx"))

        let arguments = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", directory + "/data", "a@x.io", long, "c@x.io"])
        #expect(arguments.status == 1)
        #expect(arguments.output == "\(tokens[0])\n\n\(tokens[2])\n")
        #expect(arguments.errorOutput.contains("zeropii: value 2 is longer than 4096 bytes; its output line is left empty"))
    }

    @Test func aClosedOutputPipeEndsTheRunQuietly() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let rows = (0..<20_000).map { "\($0),user\($0)@example.com" }.joined(separator: "\n")
        try ("id,email\n" + rows + "\n").write(toFile: directory + "/big.csv", atomically: true, encoding: .utf8)

        // `zeropii tokenize --csv big.csv --columns email | head -1`: read one line, then
        // close the pipe as head does.
        let process = Process()
        process.executableURL = CommandLineTool.executable
        process.arguments = ["tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", directory + "/big.csv", "--columns", "email"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let firstLine = output.fileHandleForReading.readFirstLine()
        try output.fileHandleForReading.close()
        let errorOutput = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(String(decoding: firstLine.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self) == "id,email")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 141)
        #expect(errorOutput == Self.newVaultLine(directory + "/data"), "the new vault's line only, no backtrace: \(errorOutput.prefix(500))")
    }

    /// Found from outside: a CSV exported as Windows-1252 (`M\xFCller`, `M\xE4ller`,
    /// `M\xF6ller`) gave all three names one token, exit 0, since each invalid byte became
    /// U+FFFD. Such rows are refused by line, with nothing of the value on stderr; a
    /// column that is not tokenized may hold any bytes; values on standard input too.
    @Test func valuesThatAreNotUTF8AreRefusedNotMergedIntoOneToken() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var latin1 = Data("name;email\r\n".utf8)
        for (letter, email) in [(0xFC, "a@x.de"), (0xE4, "b@x.de"), (0xF6, "c@x.de")] as [(UInt8, String)] {
            latin1 += Data("M".utf8) + Data([letter]) + Data("ller;\(email)\r\n".utf8)
        }
        try latin1.write(to: URL(fileURLWithPath: directory + "/latin1.csv"))
        let names = try CommandLineTool.run([
            "tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", directory + "/latin1.csv", "--columns", "name",
        ])
        #expect(names.status == 1)
        #expect(names.outputBytes == Data("name;email\r\n".utf8))
        let lines = names.errorOutput.split(separator: "\n").map(String.init)
        for line in 2...4 {
            #expect(lines.contains { $0.hasPrefix("zeropii: line \(line) has text that is not UTF-8") })
        }
        #expect(lines.last == "zeropii: failed rows on lines 2-4")
        #expect(!names.errorOutput.contains("ller") && !names.errorOutput.contains("@x.de"))

        // The email column is UTF-8: tokenized, and the names' bytes copied as they are,
        // with one note naming the first such line and how to convert the file.
        let emails = try CommandLineTool.run([
            "tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", directory + "/latin1.csv", "--columns", "email",
        ])
        #expect(emails.status == 0, "\(emails.errorOutput)")
        #expect(
            emails.errorOutput.hasPrefix(
                "zeropii: note: line 2 has bytes that are not UTF-8 in a column not tokenized; they are copied as they are (give --encoding windows-1252 or iso-8859-1 to convert the file to UTF-8)\n"
            ))
        let tokens = try Self.tokens(["a@x.de", "b@x.de", "c@x.de"], directory: directory)
        var expected = Data("name;email\r\n".utf8)
        for (letter, token) in zip([0xFC, 0xE4, 0xF6] as [UInt8], tokens) {
            expected += Data("M".utf8) + Data([letter]) + Data("ller;\(token)\r\n".utf8)
        }
        #expect(emails.outputBytes == expected)

        let standardInput = try CommandLineTool.run(
            ["tokenize", "--quiet", "--data-dir", directory + "/data", "-"],
            input: Data("a@x.de\nM".utf8) + Data([0xFC]) + Data("ller\n".utf8))
        #expect(standardInput.status == 1)
        // The refused line keeps its place, as an empty line.
        #expect(standardInput.output == tokens[0] + "\n\n")
        #expect(standardInput.errorOutput.contains("zeropii: line 2 is not UTF-8"))

        // An argument: Swift's CommandLine.arguments would have made it U+FFFD.
        // Foundation's Process takes String arguments, so the invalid byte goes in by way
        // of the shell, which passes bytes through.
        let process = Process()
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "exec \"$0\" tokenize --data-dir \"$1\" \"$(printf 'M\\374ller')\"", CommandLineTool.executable.path, directory + "/data",
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.hasPrefix("zeropii: argument 4 is not UTF-8 text"), "\(message)")
        #expect(!message.contains("ller"))
    }

    @Test func anExcelCSVWithAByteOrderMarkAndSemicolonsRoundTripsByteExact() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let emails = ["alice@example.com", "bob;smith@example.com", "carol@example.com"]
        func file(_ email: [String]) -> Data {
            let text =
                "id;Email;note\r\n1;\(email[0]);\"a; b\"\r\n\r\n2;\"\(email[1])\";\"say \"\"hi\"\"\"\r\n3;;empty\r\n4;\(email[2]);\"two\r\nlines\"\r\n"
            return Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)
        }
        try file(emails).write(to: URL(fileURLWithPath: directory + "/excel.csv"))
        let finished = try CommandLineTool.run([
            "tokenize", "--quiet", "--data-dir=\(directory)/data", "--csv=\(directory)/excel.csv", "--columns=Email",
        ])
        #expect(finished.status == 0, "\(finished.errorOutput)")
        #expect(finished.errorOutput == Self.newVaultLine(directory + "/data"))
        let tokens = try Self.tokens(emails, directory: directory)
        #expect(tokens.count == 3 && tokens != emails)
        #expect(finished.outputBytes == file(tokens))

        // The same file with the delimiter given.
        let given = try CommandLineTool.run([
            "tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", directory + "/excel.csv", "--columns", "Email", "--delimiter", ";",
        ])
        #expect(given.outputBytes == file(tokens))
    }

    @Test func blankLinesPassThroughAndAnUnclosedQuoteIsReportedWithItsLines() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "email\r\na@x.io\r\n\r\n\"open\r\nb@x.io\r\nc@x.io\r\n".write(toFile: directory + "/in.csv", atomically: true, encoding: .utf8)
        let finished = try CommandLineTool.run(["tokenize", "--data-dir", directory + "/data", "--csv", directory + "/in.csv", "--columns", "email"])
        let token = try Self.tokens(["a@x.io"], directory: directory)[0]
        #expect(finished.status == 1)
        #expect(finished.output == "email\r\n\(token)\r\n\r\n")
        let lines = finished.errorOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "zeropii: lines 4 to 6 are malformed (a quoted field opened on line 4 is never closed, so it took in the rest of the input); the rows were left out"
            ))
        #expect(
            lines.contains {
                $0.hasPrefix("zeropii: 1 row, 1 value (1 new token, 0 existing), 1 blank line passed through, 0 retries, 1 row failed, ")
            })
        #expect(lines.last == "zeropii: failed row on lines 4-6")
        #expect(!finished.errorOutput.contains("a@x.io") && !finished.errorOutput.contains("b@x.io"))
    }

    @Test func rowsKeepTheirOrderWhenABatchHasNothingToSend() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A batch of values in flight, then a batch of rows whose email is empty and of
        // blank lines: those must not overtake it.
        let tokenized = (0..<1000).map { "\($0),u\($0)@x.io" }
        let untouched = (0..<1000).map { "\($0)," } + Array(repeating: "", count: 100) + ["last,"]
        try (["id,email"] + tokenized + untouched).joined(separator: "\n").appending("\n")
            .write(toFile: directory + "/in.csv", atomically: true, encoding: .utf8)
        let finished = try CommandLineTool.run([
            "tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", directory + "/in.csv", "--columns", "email",
        ])
        #expect(finished.status == 0, "\(finished.errorOutput)")
        let lines = finished.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 1 + tokenized.count + untouched.count + 1)
        #expect(lines.first == "id,email")
        // Each tokenized row keeps its id and holds a token of the email's shape that is
        // not the email. (Not "holds no `@x.io`": a token renames `x.io` to itself about
        // once in 26^3 values, so one run in eighteen failed.)
        let tokenizedRowsHoldTokens = lines[1...1000].enumerated().allSatisfy { index, line in
            let email = "u\(index)@x.io"
            guard line.hasPrefix("\(index),") else { return false }
            let token = String(line.dropFirst("\(index),".count))
            return token != email && token.formatShape == email.formatShape
        }
        #expect(tokenizedRowsHoldTokens, "a tokenized row lost its id or kept its email")
        // Compared as a whole, so a failure prints one line instead of two thousand.
        #expect(lines[1001...].elementsEqual(untouched + [""]), "the rows without values did not stay after the tokenized ones")

        let values = try CommandLineTool.run(
            ["tokenize", "--quiet", "--data-dir", directory + "/data", "-"],
            input: Data(((0..<1000).map { "u\($0)@x.io" } + Array(repeating: "", count: 5000) + ["42"]).joined(separator: "\n").utf8))
        let tokens = values.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(tokens.count == 1000 + 5000 + 1 + 1)
        #expect(tokens[0..<1000].allSatisfy { $0.contains("@") } && tokens[1000..<6000].allSatisfy(\.isEmpty) && tokens[6000].count == 2)
    }

    @Test func anEmptyInputPrintsTheSummaryAndStartsNoServer() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(FileManager.default.createFile(atPath: directory + "/empty.csv", contents: Data()))
        let finished = try CommandLineTool.run([
            "tokenize", "--data-dir", directory + "/data", "--csv", directory + "/empty.csv", "--columns", "email",
        ])
        #expect(finished.status == 0)
        #expect(finished.output == "")
        #expect(finished.errorOutput == "zeropii: 0 rows, 0 values (0 new tokens, 0 existing), 0 retries, 0 rows failed, 0.0 s\n")
    }

    @Test func columnsMatchIgnoringCaseWithANoteAndUnknownOnesGetASuggestion() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "ID,Email\n1,a@x.io\n".write(toFile: directory + "/in.csv", atomically: true, encoding: .utf8)
        let base = ["tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", directory + "/in.csv"]
        let folded = try CommandLineTool.run(base + ["--columns", "email"])
        #expect(folded.status == 0)
        #expect(
            folded.errorOutput
                == "zeropii: note: the CSV has no column 'email'; using 'Email', which differs only in case\n"
                + Self.newVaultLine(directory + "/data"))
        #expect(folded.output.hasPrefix("ID,Email\n1,") && !folded.output.contains("a@x.io"))

        let typo = try CommandLineTool.run(base.filter { $0 != "--quiet" } + ["--columns", "emial"])
        #expect(typo.status == 2)
        #expect(typo.errorOutput == "zeropii: the CSV has no column 'emial'; did you mean 'Email'?\n\(CSVColumnsHint.cells(2))\n")
        // The usage error came before the embedded server started: no banner.
        #expect(!typo.errorOutput.contains("embedded mock server"))
    }

    @Test func aDashReadsValuesFromStandardInputOnePerLine() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let expected = try Self.tokens(["a@x.io", "42"], directory: directory)
        let finished = try CommandLineTool.run(
            ["tokenize", "--quiet", "--data-dir", directory + "/data", "-"], input: Data("a@x.io\r\n\n42\n".utf8))
        #expect(finished.status == 0, "\(finished.errorOutput)")
        #expect(finished.output == "\(expected[0])\n\n\(expected[1])\n")

        try "42\na@x.io".write(toFile: directory + "/values.txt", atomically: true, encoding: .utf8)
        let fromFile = try CommandLineTool.run(["tokenize", "--quiet", "--data-dir", directory + "/data", "--values-from=\(directory)/values.txt"])
        #expect(fromFile.output == "\(expected[1])\n\(expected[0])\n")
    }

    @Test func anUnreadableInputIsOneLineAndStatus1() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (path, reason) in [(directory, "it is a folder, not a file"), (directory + "/missing.csv", "no such file or directory")] {
            let finished = try CommandLineTool.run(["tokenize", "--data-dir", directory + "/data", "--csv", path, "--columns", "email"])
            #expect(finished.status == 1)
            #expect(finished.output == "")
            #expect(finished.errorOutput == "zeropii: cannot read '\(path)': \(reason)\n")
        }
        // Writing the output over the input would destroy it before it is read.
        try "email\na@x.io\n".write(toFile: directory + "/in.csv", atomically: true, encoding: .utf8)
        let overwrite = try CommandLineTool.run(["tokenize", "--csv", directory + "/in.csv", "--columns", "email", "--output", directory + "/in.csv"])
        #expect(overwrite.status == 2 && overwrite.errorOutput.contains("is the input file"))
        #expect(try String(contentsOfFile: directory + "/in.csv", encoding: .utf8) == "email\na@x.io\n")

        let folderOfValues = try CommandLineTool.run(["tokenize", "--values-from", directory])
        #expect(folderOfValues.status == 1)
        #expect(folderOfValues.errorOutput == "zeropii: cannot read '\(directory)': it is a folder, not a file\n")
    }

    @Test func versionAndHelpFollowUnixHabits() throws {
        let version = try CommandLineTool.run(["--version"])
        #expect(version.status == 0 && version.output == "zeropii \(ZeroPiiSDK.version)\n")
        #expect(try CommandLineTool.run(["version"]).output == version.output)
        // The version is the one the CocoaPods spec releases.
        let podspec = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CleverTapZeroPiiSDK.podspec")
        let versionLine = try String(contentsOf: podspec, encoding: .utf8).split(separator: "\n").first { $0.contains("spec.version ") }
        #expect(versionLine?.hasSuffix("'\(ZeroPiiSDK.version)'") == true, "\(versionLine ?? "no spec.version")")

        let help = try CommandLineTool.run(["help", "tokenize"])
        #expect(help.status == 0)
        #expect(help.output == (try CommandLineTool.run(["tokenize", "--help"])).output)
        #expect(help.output.contains("--delimiter") && help.output.contains("--values-from"))
        let unknown = try CommandLineTool.run(["help", "frobnicate"])
        #expect(unknown.status == 2 && unknown.errorOutput.contains("there is no command 'frobnicate'"))
    }

    @Test func aPortInUseSaysWhichAndWhatToDo() throws {
        let occupant = try MockTokenizationServer()
        defer { occupant.stop() }
        let port = try #require(occupant.baseURL.port)
        let finished = try CommandLineTool.run(["serve", "--port=\(port)"])
        #expect(finished.status == 1)
        #expect(finished.errorOutput.hasSuffix("zeropii: port \(port) is in use; choose another with --port or use --port 0\n"))
    }

    /// Found from outside: values read one per line went on to the end against a dead
    /// server, each batch waiting out its retry, where a CSV stopped after three.
    @Test func linesStopAfterThreeBatchesInARowGetNoAnswer() throws {
        // From a file: a tool that stops early leaves a pipe's writer to SIGPIPE.
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = (1...10_000).map { "user\($0)@example.com" }.joined(separator: "\n") + "\n"
        try Data(lines.utf8).write(to: URL(fileURLWithPath: directory + "/values.txt"))
        let started = Date()
        let finished = try CommandLineTool.run(
            ["tokenize", "--values-from", directory + "/values.txt", "--api-url", "http://127.0.0.1:1/", "--concurrency", "1"],
            environment: ["ZEROPII_ACCESS_TOKEN": "t"])
        #expect(finished.status == 1)
        #expect(
            finished.errorOutput.contains(
                "zeropii: no HTTP response from the server at http://127.0.0.1:1/ to 3 batches in a row "
                    + "(the network request failed: connection refused); lines 3001 to the end were not sent"), "\(finished.errorOutput)")
        // The summary, as at the end of the input.
        #expect(finished.errorOutput.contains("3000 lines failed"), "\(finished.errorOutput)")
        // Every line before the stop has its (empty) output line, and nothing after it.
        #expect(finished.output == String(repeating: "\n", count: 3000))
        #expect(!finished.errorOutput.contains("lines 3001 to 4000 could not be tokenized"))
        // Three batches, each sent twice (the default retry), not ten.
        #expect(Date().timeIntervalSince(started) < 60)

        // Found from outside: with four batches in flight (the default), the answers that
        // would stop the run waited to be read while two more batches went out. Once a
        // batch gets no answer, those in flight end before another is sent.
        let concurrent = try CommandLineTool.run(
            ["tokenize", "--values-from", directory + "/values.txt", "--api-url", "http://127.0.0.1:1/", "--concurrency", "4"],
            environment: ["ZEROPII_ACCESS_TOKEN": "t"])
        #expect(concurrent.status == 1)
        // Found from outside: the message said 3 batches where 4 had got no answer.
        #expect(
            concurrent.errorOutput.contains("to 4 batches in a row (the network request failed: connection refused); lines 4001 to the end"),
            "\(concurrent.errorOutput)")
        #expect(concurrent.output == String(repeating: "\n", count: 4000))

        // The same in a CSV: the header, then rows 2 to 4001 in the four batches in flight.
        let csv = "email\n" + lines
        try Data(csv.utf8).write(to: URL(fileURLWithPath: directory + "/people.csv"))
        let spreadsheet = try CommandLineTool.run(
            ["tokenize", "--csv", directory + "/people.csv", "--columns", "email", "--api-url", "http://127.0.0.1:1/", "--concurrency", "4"],
            environment: ["ZEROPII_ACCESS_TOKEN": "t"])
        #expect(spreadsheet.status == 1)
        #expect(spreadsheet.errorOutput.contains("lines 4002 to the end were not sent"), "\(spreadsheet.errorOutput)")
    }

    @Test func aRefusedConnectionIsNamedWithTheURL() throws {
        // Nothing listens on port 1; the access token comes from the environment.
        let finished = try CommandLineTool.run(
            ["tokenize", "--api-url", "http://127.0.0.1:1/", "a@x.io"], environment: ["ZEROPII_ACCESS_TOKEN": "not-a-secret-but-hidden"])
        #expect(finished.status == 1)
        #expect(finished.errorOutput.contains("value 1 could not be tokenized: the network request failed: connection refused (http://127.0.0.1:1/)"))
        #expect(!finished.errorOutput.contains("not-a-secret-but-hidden") && !finished.errorOutput.contains("a@x.io"))
    }
}
