import Foundation
import Testing
import ZeroPiiSDK
import ZeroPiiTestSupport

@testable import ZeroPiiCLI

struct TokenizeCommandParsingTests {
    @Test(arguments: [
        ["--csv", "f.csv"], ["--columns", "a"], ["--csv", "f.csv", "--columns", "a", "value"], [],
        ["--bogus"], ["--concurrency", "0", "x"], ["--concurrency"], ["--csv"], ["--api-url"],
    ])
    func usageErrors(arguments: [String]) {
        guard case .failure = TokenizeCommand.parse(arguments) else {
            Issue.record("expected a usage error for \(arguments)")
            return
        }
    }

    @Test func optionsAreRead() {
        guard
            case .options(let options) = TokenizeCommand.parse([
                "--csv", "-", "--columns", "email,phone", "--output", "out.csv", "--strict", "--concurrency", "8", "--quiet",
                "--api-url", "https://x.test", "--access-token", "t",
            ])
        else {
            Issue.record("expected options")
            return
        }
        #expect(options.csvPath == "-" && options.columns == ["email", "phone"] && options.outputPath == "out.csv")
        #expect(options.strict && options.quiet && options.concurrency == 8)
        #expect(options.connection.apiURL == "https://x.test" && options.connection.accessToken == "t")
        guard case .help = TokenizeCommand.parse(["--help"]) else { Issue.record("expected help"); return }
    }

    /// `--as double|float` sends what the SDK sends for that number (Java 17's
    /// `toString`, as on Android); text stays as typed.
    @Test(arguments: [
        (["1e7", "100", "0.1", "1e23", "-0"], "string", ["1e7", "100", "0.1", "1e23", "-0"]),
        (["1e7", "100", "0.1", "1e23", "-0"], "double", ["1.0E7", "100.0", "0.1", "9.999999999999999E22", "-0.0"]),
        (["123456789", "3.14", "1e-3", "16777217"], "float", ["1.23456792E8", "3.14", "0.001", "1.6777216E7"]),
    ])
    func numbersAreSentAsTheSDKSendsThem(values: [String], type: String, sent: [String]) {
        guard case .options(let options) = TokenizeCommand.parse(["--as", type] + values) else {
            Issue.record("expected options")
            return
        }
        #expect(options.values == sent)
    }

    @Test(arguments: [
        (["--as", "double", "1", "alice"], "value 2 is not a finite double"),
        (["--as", "float", "1e39"], "value 1 is not a finite float"),
        (["--as", "double", "nan"], "value 1 is not a finite double"),
        (["--as", "decimal", "1"], "--as needs string, double or float"),
        (["--as", "double", "--csv", "f.csv", "--columns", "a"], "--as goes with values, not --csv"),
    ])
    func numberErrorsNameThePositionNotTheValue(arguments: [String], message: String) {
        guard case .failure(let reported) = TokenizeCommand.parse(arguments) else {
            Issue.record("expected a usage error for \(arguments)")
            return
        }
        #expect(reported == message)
    }
}

/// The whole command in-process against the embedded server. Serialized with the other
/// users of the shared SDK instance.
struct TokenizeCommandRunTests {
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "zeropii-cli-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aCSVRoundTripKeepsEverythingButTheChosenColumns() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let directory = Self.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let input =
                "id,email,phone,note\r\n1,alice@example.com,+1 (555) 010-2345,\"hello, \"\"world\"\"\"\r\n2,\"bob@example.com\",555-0100,plain\r\n3,,,\"multi\nline\"\r\n"
            try input.write(toFile: directory + "/in.csv", atomically: true, encoding: .utf8)
            let arguments = [
                "--data-dir", directory + "/data", "--quiet", "--csv", directory + "/in.csv", "--columns", "email,phone", "--output",
                directory + "/out.csv",
            ]
            let status = await TokenizeCommand.run(arguments)
            #expect(status == 0)
            let output = try String(contentsOfFile: directory + "/out.csv", encoding: .utf8)
            let inputRows = input.components(separatedBy: "\r\n")
            let outputRows = output.components(separatedBy: "\r\n")
            #expect(outputRows.count == inputRows.count)
            #expect(outputRows[0] == inputRows[0])
            #expect(outputRows[1].hasPrefix("1,") && outputRows[1].hasSuffix(",\"hello, \"\"world\"\"\""))
            #expect(!outputRows[1].contains("alice") && outputRows[1].contains("@") && outputRows[1].contains("+"))
            #expect(outputRows[2].hasPrefix("2,\"") && outputRows[2].hasSuffix(",plain") && !outputRows[2].contains("bob@"))
            #expect(outputRows[3] == inputRows[3])

            // A second run gives the same tokens (the vault persists in the data directory).
            let second = await TokenizeCommand.run(arguments.map { $0 == directory + "/out.csv" ? directory + "/out2.csv" : $0 })
            #expect(second == 0)
            #expect(try String(contentsOfFile: directory + "/out2.csv", encoding: .utf8) == output)
        }
    }

    @Test func malformedRowsFailTheRunButNotTheOtherRows() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let directory = Self.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try "email\na@x.io\n\"bad\"x\nb@x.io\n".write(toFile: directory + "/in.csv", atomically: true, encoding: .utf8)
            let base = ["--data-dir", directory + "/data", "--quiet", "--csv", directory + "/in.csv", "--columns", "email"]
            #expect(await TokenizeCommand.run(base + ["--output", directory + "/out.csv"]) == 1)
            let rows = try String(contentsOfFile: directory + "/out.csv", encoding: .utf8).split(separator: "\n")
            #expect(rows.count == 3)
            #expect(!rows.contains { $0.contains("bad") })
            // --strict stops the run early: the rows before the malformed one are kept in
            // the partial file, and no output file is made.
            #expect(await TokenizeCommand.run(base + ["--strict", "--output", directory + "/strict.csv"]) == 1)
            #expect(!FileManager.default.fileExists(atPath: directory + "/strict.csv"))
            let strictRows = try String(contentsOfFile: directory + "/strict.csv.partial", encoding: .utf8).split(separator: "\n")
            #expect(strictRows.count == 2)
            #expect(
                await TokenizeCommand.run(["--data-dir", directory + "/data", "--quiet", "--csv", directory + "/in.csv", "--columns", "nope"]) == 2)
        }
    }
}

/// With the server gone, the command stops after a few failed batches instead of
/// retrying every remaining one.
struct CircuitBreakerTests {
    /// Counts the requests that reach the transport.
    final class RequestCounter: @unchecked Sendable {
        // Sendable: `value` is guarded by `lock`.
        private let lock = NSLock()
        private var value = 0
        var count: Int { lock.withLock { value } }
        func increment() { lock.withLock { value += 1 } }
    }

    @Test func anUnreachableServerEndsTheRunEarly() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let directory = TokenizeCommandRunTests.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let rows = (0..<20_000).map { "u\($0)@x.io" }.joined(separator: "\n")
            try ("email\n" + rows + "\n").write(toFile: directory + "/in.csv", atomically: true, encoding: .utf8)

            // No server answers, and the back-off between attempts is not waited out.
            let requests = RequestCounter()
            let retryClock = ImmediateRetryClock()
            var configuration = ZeroPiiConfiguration()
            configuration.transport = ClosureTransport { _ in
                requests.increment()
                throw TransportError.connectionFailed
            }
            configuration.retryClock = retryClock
            var options = TokenizeCommand.Options()
            options.quiet = true
            options.concurrency = 2
            options.columns = ["email"]
            options.outputPath = directory + "/out.csv"
            options.connection.apiURL = "http://127.0.0.1:9/"
            options.connection.accessToken = "t"
            let connection = try await ServerConnection.open(options.connection, configuration: configuration, announce: false)

            let status = await CSVTokenizer(options: options, output: try OutputFile.create(options.outputPath)) { connection }
                .run(input: DecodedInput(file: try InputFile.open(directory + "/in.csv"), declared: nil))
            #expect(status == 1)
            // The run stopped early: no output file, the rows so far in the partial file.
            #expect(!FileManager.default.fileExists(atPath: directory + "/out.csv"))
            let output = try String(contentsOfFile: directory + "/out.csv.partial", encoding: .utf8)
            #expect(output == "email\n")  // nothing untokenized was written
            // All 20 batches would be 40 attempts (each retried once). The breaker stops
            // reading after 3 failed batches in a row, with at most `concurrency` more
            // already sent.
            let attempts = requests.count
            #expect(attempts >= 3 * 2)
            #expect(attempts <= (3 + 2) * 2)
            #expect(retryClock.sleeps == Array(repeating: 2000, count: attempts / 2))
        }
    }
}
