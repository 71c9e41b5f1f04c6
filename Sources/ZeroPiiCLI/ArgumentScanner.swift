/// Walks a command's arguments the way Unix tools read them: `--name value` and
/// `--name=value` alike, `-h`, and `--` ending the options (everything after it is a
/// plain argument, even `-` or `--x`).
struct ArgumentScanner {
    enum Argument: Equatable {
        case option(String)
        case plain(String)
    }

    private let arguments: [String]
    private var index = 0
    private var inlineValue: String?
    /// True after `--`: every later argument is plain.
    private(set) var optionsEnded = false

    init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// The next option (its name without any `=value`) or plain argument.
    mutating func next() -> Argument? {
        inlineValue = nil
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        index += 1
        if optionsEnded { return .plain(argument) }
        if argument == "--" {
            optionsEnded = true
            return next()
        }
        guard argument.hasPrefix("--") || argument == "-h" else { return .plain(argument) }
        if let equals = argument.firstIndex(of: "=") {
            inlineValue = String(argument[argument.index(after: equals)...])
            return .option(String(argument[..<equals]))
        }
        return .option(argument)
    }

    /// The current option's value: after `=`, or the next argument unless that is an
    /// option. Nil when there is none (or it is empty).
    mutating func value() -> String? {
        if let inline = inlineValue {
            inlineValue = nil
            return inline.isEmpty ? nil : inline
        }
        guard index < arguments.count, !arguments[index].hasPrefix("--"), !arguments[index].isEmpty else { return nil }
        index += 1
        return arguments[index - 1]
    }

    /// True when the current option, a flag, was given `=value`.
    var flagHasValue: Bool { inlineValue != nil }
}
