import Foundation

/// The `zeropii` command: dispatches to its subcommands and returns the exit status
/// (0 success, 1 some values could not be tokenized or a file could not be used,
/// 2 usage error, 141 the output was closed).
public enum CommandLineInterface {
    /// Runs `zeropii` with the process's own arguments. They are read as bytes: Swift's
    /// `CommandLine.arguments` replaces bytes that are not UTF-8 with U+FFFD, which gave
    /// different values one token; an argument that is not UTF-8 is a usage error.
    public static func runWithProcessArguments() async -> Int32 {
        var arguments: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { break }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            guard let argument = StrictUTF8.decode(bytes) else {
                Usage.fail("argument \(index) is not UTF-8 text", hint: "values must be UTF-8; convert them first (for example with iconv)")
                return 2
            }
            arguments.append(argument)
        }
        return await run(arguments, handlesSignals: true)
    }

    /// Runs `zeropii` with `arguments` (without the program name) and returns the exit
    /// status. With `handlesSignals`, `tokenize` takes SIGINT and SIGTERM itself, to stop
    /// cleanly (the process's own run; never in a test process).
    public static func run(_ arguments: [String], handlesSignals: Bool = false) async -> Int32 {
        switch arguments.first {
        case "serve":
            return ServeCommand.run(splittingInlineValues(Array(arguments.dropFirst())))
        case "tokenize":
            return await TokenizeCommand.run(Array(arguments.dropFirst()), handlesSignals: handlesSignals)
        case "demo":
            return await DemoCommand.run(Array(arguments.dropFirst()))
        case "version", "--version":
            print(Usage.version)
            return 0
        case "help" where arguments.count > 1:
            guard let text = Usage.help(for: arguments[1]) else {
                Usage.fail("there is no command '\(arguments[1])'", hint: "run 'zeropii help' for the list of commands")
                return 2
            }
            print(text)
            return 0
        case "--help", "-h", "help":
            print(Usage.main)
            return 0
        case nil:
            Console.errorLines(Usage.main)
            return 2
        default:
            Usage.fail("unknown command '\(arguments[0])'", hint: "run 'zeropii --help' for the list of commands")
            return 2
        }
    }

    /// `--name=value` as `--name value`, up to a `--`, for a command that reads its
    /// options one argument at a time.
    static func splittingInlineValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var optionsEnded = false
        for argument in arguments {
            if argument == "--" { optionsEnded = true }
            if !optionsEnded, argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                result.append(String(argument[..<equals]))
                result.append(String(argument[argument.index(after: equals)...]))
            } else {
                result.append(argument)
            }
        }
        return result
    }
}
