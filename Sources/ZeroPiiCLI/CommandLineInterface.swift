import Foundation

/// The `zeropii` command: dispatches to its subcommands and returns the exit status
/// (0 success, 1 some values could not be tokenized, 2 usage error).
public enum CommandLineInterface {
    /// Runs `zeropii` with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String]) async -> Int32 {
        switch arguments.first {
        case "serve":
            return ServeCommand.run(Array(arguments.dropFirst()))
        case "tokenize":
            return await TokenizeCommand.run(Array(arguments.dropFirst()))
        case "demo":
            return await DemoCommand.run(Array(arguments.dropFirst()))
        case "--help", "-h", "help":
            print(Usage.main)
            return 0
        case nil:
            FileHandle.standardError.write(Data((Usage.main + "\n").utf8))
            return 2
        default:
            Usage.fail("unknown command '\(arguments[0])'", hint: "run 'zeropii --help' for the list of commands")
            return 2
        }
    }
}
