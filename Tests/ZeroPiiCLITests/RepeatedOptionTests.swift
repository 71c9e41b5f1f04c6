import Foundation
import Testing

@testable import ZeroPiiCLI

/// An option given twice: a list's values add up, any other option is a usage error that
/// names it, before anything runs. Walks every option of every command.
struct RepeatedOptionTests {
    /// Values the options accept, so that only the repeat can stop a parse.
    static let acceptedValues = ["--as": "double", "--concurrency": "2", "--delimiter": ";", "--wire": "v1", "--encoding": "cp1252"]

    /// The arguments that give `option` twice: with a value it accepts each time, or bare
    /// for a flag.
    static func twice(_ option: String, flags: Set<String>) -> [String] {
        let value = acceptedValues[option] ?? "x"
        return flags.contains(option) ? [option, option] : [option, value, option, value]
    }

    @Test func columnsGivenTwiceAddUp() throws {
        let parsed = TokenizeCommand.parse(["--csv", "in.csv", "--columns", "email", "--columns", "phone,name"], environment: [:])
        guard case .options(let options) = parsed else {
            Issue.record("expected options, got \(parsed)")
            return
        }
        #expect(options.columns == ["email", "phone", "name"])
    }

    @Test func pinnedKeysGivenTwiceAddUp() throws {
        let (first, second) = (
            "sha256//" + Data(repeating: 1, count: 32).base64EncodedString(), "sha256//" + Data(repeating: 2, count: 32).base64EncodedString()
        )
        let parsed = TokenizeCommand.parse(
            ["--api-url", "https://tokens.example.test/", "--access-token", "t", "--pinned-key", first, "--pinned-key=\(second)", "x"],
            environment: [:])
        guard case .options(let options) = parsed else {
            Issue.record("expected options, got \(parsed)")
            return
        }
        #expect(options.connection.pinnedKeys == [first, second])
    }

    @Test func everyOtherTokenizeOptionMayBeGivenOnce() {
        let once = TokenizeCommand.optionNames.subtracting(TokenizeCommand.listOptionNames).subtracting(["--help", "-h"])
        #expect(once.count == 20)
        for option in once.sorted() {
            let parsed = TokenizeCommand.parse(Self.twice(option, flags: TokenizeCommand.flagNames), environment: [:])
            guard case .failure(let message) = parsed else {
                Issue.record("\(option) twice was accepted")
                continue
            }
            #expect(message == "\(option) is given more than once; give it once")
        }
        // With `=value` too, and wherever the second one stands.
        let parsed = TokenizeCommand.parse(["--output=a.csv", "--csv", "in.csv", "--columns", "e", "--output", "b.csv"], environment: [:])
        guard case .failure(let message) = parsed else {
            Issue.record("--output twice was accepted")
            return
        }
        #expect(message == "--output is given more than once; give it once")
    }

    @Test func helpMayComeTwiceAndAnUnknownOptionIsNotCalledRepeated() {
        guard case .help = TokenizeCommand.parse(["--help", "-h"], environment: [:]) else {
            Issue.record("help twice was not help")
            return
        }
        guard case .failure(let message) = TokenizeCommand.parse(["--nope", "--nope"], environment: [:]) else {
            Issue.record("an unknown option was accepted")
            return
        }
        #expect(message.hasPrefix("unknown option"))
    }

    @Test func theScannerChecksOnlyTheCommandsOptionsAndLetsListsRepeat() {
        var scanner = ArgumentScanner(["--a", "1", "--b", "--a=2", "--b", "--", "--a"], options: ["--a", "--b"], repeatable: ["--b"])
        var repeated: [String?] = []
        while let argument = scanner.next() {
            if case .option = argument { _ = scanner.value() }
            repeated.append(scanner.repeatedOption)
        }
        // --a, --b, --a (repeated), --b (a list), then `--a` after `--` is a plain value.
        #expect(repeated == [nil, nil, "--a", nil, nil])
    }

    @Test func serveAndDemoListTheirOptions() {
        #expect(ServeCommand.optionNames.isSuperset(of: ServeCommand.flagNames.union(ServeCommand.listOptionNames)))
        #expect(DemoCommand.optionNames.isSuperset(of: DemoCommand.flagNames))
        for option in ServeCommand.optionNames.union(DemoCommand.optionNames).union(TokenizeCommand.optionNames) where option != "-h" {
            #expect((Usage.serve + Usage.demo + Usage.tokenize).contains(option), "\(option) is not in any help")
        }
    }
}

/// Messages name an unknown option only when it looks like one: anything else may be a
/// value typed where an option goes.
struct UnknownArgumentMessageTests {
    @Test(arguments: [
        ("--frobnicate", "unknown option '--frobnicate'"),
        ("--foo-bar@example.com", "an argument is no option of this command (not shown: it may be a value)"),
        ("--+1-555-0100", "an argument is no option of this command (not shown: it may be a value)"),
        ("--4111111111111111", "an argument is no option of this command (not shown: it may be a value)"),
        ("--555-010-2345", "an argument is no option of this command (not shown: it may be a value)"),
        ("--ab123", "an argument is no option of this command (not shown: it may be a value)"),
        ("--utf16", "unknown option '--utf16'"),
        ("--Anna", "an argument is no option of this command (not shown: it may be a value)"),
        ("--" + String(repeating: "a", count: 41), "an argument is no option of this command (not shown: it may be a value)"),
    ])
    func unknownArgumentsAreNamedOnlyWhenTheyLookLikeOptions(argument: String, message: String) {
        #expect(ArgumentScanner.unknownMessage(argument) == message)
        guard case .failure(let parsed) = TokenizeCommand.parse([argument, "x"], environment: [:]) else {
            Issue.record("\(argument) was accepted")
            return
        }
        #expect(parsed == message)
    }

    @Test func aDataDirectoryWithAnAPIURLIsAUsageError() {
        guard
            case .failure(let message) = TokenizeCommand.parse(
                ["--api-url", "https://api.example.com/", "--access-token", "t", "--data-dir", "d", "x"], environment: [:])
        else {
            Issue.record("--data-dir with --api-url was accepted")
            return
        }
        #expect(message == "--data-dir is the embedded server's vault; with --api-url the service keeps the tokens, so leave it out")
    }
}
