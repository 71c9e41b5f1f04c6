/// Walks a command's arguments the way Unix tools read them: `--name value` and
/// `--name=value` alike, `-h`, and `--` ending the options (everything after it is a
/// plain argument, even `-` or `--x`).
///
/// An option of the command's `options` that is not `repeatable` may be given once:
/// taking the last of two silently could leave a column in clear or write a file nobody
/// asked for, so the scanner says when one comes again (``repeatedOption``) and the
/// command stops with a usage error naming it.
struct ArgumentScanner {
    enum Argument: Equatable {
        case option(String)
        case plain(String)
    }

    private let arguments: [String]
    private let options: Set<String>
    private let repeatable: Set<String>
    private var seen: Set<String> = []
    private var index = 0
    private var inlineValue: String?
    /// True after `--`: every later argument is plain.
    private(set) var optionsEnded = false
    /// The option ``next()`` just returned, when it is one of the command's options, may
    /// be given only once, and was given before; nil otherwise.
    private(set) var repeatedOption: String?

    /// - Parameters:
    ///   - options: every option the command knows; only these are checked for repeats
    ///     (an unknown one is the command's to report).
    ///   - repeatable: the options that may come more than once: lists, whose values add
    ///     up, and `--help`.
    init(_ arguments: [String], options: Set<String> = [], repeatable: Set<String> = ["--help", "-h"]) {
        self.arguments = arguments
        self.options = options
        self.repeatable = repeatable
    }

    /// The next option (its name without any `=value`) or plain argument.
    mutating func next() -> Argument? {
        inlineValue = nil
        repeatedOption = nil
        guard let argument = nextArgument() else { return nil }
        if case .option(let name) = argument, options.contains(name), !repeatable.contains(name), !seen.insert(name).inserted {
            repeatedOption = name
        }
        return argument
    }

    private mutating func nextArgument() -> Argument? {
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        index += 1
        if optionsEnded { return .plain(argument) }
        if argument == "--" {
            optionsEnded = true
            return nextArgument()
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

    /// The usage error for an argument that is no option of the command. It is named only
    /// when it looks like an option name (`--`, a lowercase letter, then at most 39 more
    /// lowercase letters, dashes and at most two digits): anything else may be a value put
    /// where an option goes (an email, a card or phone number), and values are personal
    /// data.
    static func unknownMessage(_ argument: String) -> String {
        let name = argument.utf8.dropFirst(2)
        let isDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) }
        let looksLikeAnOption =
            argument.hasPrefix("--") && (1...40).contains(name.count) && name.first.map { (0x61...0x7A).contains($0) } == true
            && name.allSatisfy { $0 == UInt8(ascii: "-") || (0x61...0x7A).contains($0) || isDigit($0) }
            && name.filter(isDigit).count <= 2
        return looksLikeAnOption ? "unknown option '\(argument)'" : "an argument is no option of this command (not shown: it may be a value)"
    }

    /// The usage error for an option given twice that may be given once.
    static func repeatedMessage(_ option: String) -> String {
        "\(option) is given more than once; give it once"
    }

    /// True when the current option, a flag, was given `=value`.
    var flagHasValue: Bool { inlineValue != nil }
}
