import Foundation
import ZeroPiiSDK
import ZeroPiiWire

/// `zeropii tokenize`: values from the command line, one per line from a file or
/// standard input, or columns of a CSV file.
enum TokenizeCommand {
    struct Options {
        var values: [String] = []
        /// A file of values, one per line (`-` for standard input).
        var valuesPath: String?
        /// How the values are read: as text (sent unchanged) or as numbers, sent as the
        /// SDK sends a `Double` or `Float` (`1e7` → `1.0E7`), so they get the app's token.
        var valueType = ValueType.string
        var csvPath: String?
        var columns: [String] = []
        /// `--no-header`: the CSV's first line is data, and ``columnPositions`` (from 1)
        /// say which columns to tokenize.
        var noHeader = false
        var columnPositions: [Int] = []
        /// `--encoding`: how the input is written when no byte-order mark says so.
        var encoding: InputEncoding?
        /// `--rejects`: where a CSV run copies the rows it leaves out.
        var rejectsPath: String?
        /// The CSV delimiter; nil to detect it from the header line.
        var delimiter: UInt8?
        var outputPath = "-"
        var strict = false
        var concurrency = 4
        var quiet = false
        var connection = ServerConnection.Options()
    }

    static func run(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment, handlesSignals: Bool = false
    ) async -> Int32 {
        let options: Options
        switch parse(arguments, environment: environment) {
        case .help:
            print(Usage.tokenize)
            return 0
        case .failure(let message):
            Usage.fail(message, hint: "run 'zeropii help tokenize' for the options")
            return 2
        case .options(let parsed):
            options = parsed
        }
        guard handlesSignals else { return await tokenize(options, environment: environment, interruption: nil) }
        // The run in a task of its own, so that a signal can cancel it (and with it any
        // request in flight); see Interruption.
        let interruption = Interruption()
        let run = Task { await tokenize(options, environment: environment, interruption: interruption) }
        interruption.start(cancelRun: { run.cancel() })
        return await run.value
    }

    private static func tokenize(_ options: Options, environment: [String: String], interruption: Interruption?) async -> Int32 {
        let connect = {
            // As many requests in flight as batches: the SDK's own bound must not hold
            // back what --concurrency asks for.
            var configuration = ZeroPiiConfiguration()
            configuration.maximumConcurrentRequests = options.concurrency
            let connection = try await ServerConnection.open(
                options.connection, configuration: configuration, announce: !options.quiet, environment: environment)
            interruption?.tokenizingBegan()
            return connection
        }

        if options.values.isEmpty {
            // The input first, then the output: a missing input leaves no empty output behind.
            let input: InputFile
            let output: OutputFile
            var rejects: RejectedRows?
            do {
                input = try InputFile.open(options.csvPath ?? options.valuesPath ?? "-")
                for (option, path) in [("--output", options.outputPath), ("--rejects", options.rejectsPath ?? "-")]
                where input.isSameFile(asPath: path) {
                    Usage.fail("\(option) '\(path)' is the input file; writing it would destroy the input", hint: "choose another \(option)")
                    return 2
                }
                output = try OutputFile.create(options.outputPath)
                if let path = options.rejectsPath { rejects = RejectedRows(output: try OutputFile.create(path)) }
            } catch {
                Console.error("zeropii: \(error)")
                return 1
            }
            let decoded = DecodedInput(file: input, declared: options.encoding)
            if options.csvPath != nil {
                return await CSVTokenizer(options: options, output: output, rejects: rejects, connect: connect, interruption: interruption)
                    .run(input: decoded)
            }
            return await ValueTokenizer(options: options, output: output, connect: connect, interruption: interruption).run(.lines(decoded))
        }
        let output: OutputFile
        do {
            output = try OutputFile.create(options.outputPath)
        } catch {
            Console.error("zeropii: \(error)")
            return 1
        }
        return await ValueTokenizer(options: options, output: output, connect: connect, interruption: interruption).run(
            .arguments(options.values))
    }

    enum ValueType: String {
        case string
        case double
        case float

        /// The string the SDK would send for `text` read as this type, or nil when it is
        /// not a finite number of that type.
        func wireString(_ text: String) -> String? {
            switch self {
            case .string: return text
            case .double: return Double(text).flatMap(WireValueFormat.string)
            case .float: return Float(text).flatMap(WireValueFormat.string)
            }
        }
    }

    enum Parsed {
        case options(Options)
        case help
        case failure(String)
    }

    /// The delimiters `--delimiter` takes, by the name given on the command line.
    static let delimiters: [String: UInt8] = [
        ",": UInt8(ascii: ","), ";": UInt8(ascii: ";"), "|": UInt8(ascii: "|"), "tab": UInt8(ascii: "\t"), "\t": UInt8(ascii: "\t"),
        "\\t": UInt8(ascii: "\t"),
    ]

    /// Every option of `zeropii tokenize`.
    static let optionNames: Set<String> = [
        "--help", "-h", "--strict", "--quiet", "--insecure-http", "--csv", "--values-from", "--columns", "--delimiter", "--output",
        "--as", "--concurrency", "--api-url", "--access-token", "--token-url", "--client-id", "--data-dir", "--wire", "--encoding",
        "--no-header", "--rejects", "--create-data-dir", "--ca-file", "--pinned-key",
    ]
    /// The options that take no value.
    static let flagNames: Set<String> = ["--help", "-h", "--strict", "--quiet", "--insecure-http", "--no-header", "--create-data-dir"]
    /// The options whose values add up when given more than once; every other option may
    /// be given once.
    static let listOptionNames: Set<String> = ["--columns", "--pinned-key"]

    static func parse(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Parsed {
        var options = Options()
        var scanner = ArgumentScanner(arguments, options: optionNames, repeatable: listOptionNames.union(["--help", "-h"]))
        var readsStandardInput = false
        while let argument = scanner.next() {
            guard case .option(let option) = argument else {
                if case .plain(let value) = argument {
                    if value == "-" && !scanner.optionsEnded {
                        readsStandardInput = true
                    } else {
                        options.values.append(value)
                    }
                }
                continue
            }
            if let repeated = scanner.repeatedOption { return .failure(ArgumentScanner.repeatedMessage(repeated)) }
            switch option {
            case "--help", "-h", "--strict", "--quiet", "--insecure-http", "--no-header", "--create-data-dir":
                if scanner.flagHasValue { return .failure("\(option) takes no value") }
                if option == "--strict" { options.strict = true }
                if option == "--quiet" { options.quiet = true }
                if option == "--insecure-http" { options.connection.insecureHTTP = true }
                if option == "--no-header" { options.noHeader = true }
                if option == "--create-data-dir" { options.connection.createsDataDirectoryParents = true }
                if option == "--help" || option == "-h" { return .help }
            case "--csv":
                guard let path = scanner.value() else { return .failure("--csv needs a file (or '-' for standard input)") }
                options.csvPath = path
            case "--values-from":
                guard let path = scanner.value() else { return .failure("--values-from needs a file (or '-' for standard input)") }
                options.valuesPath = path
            case "--columns":
                guard let list = scanner.value() else { return .failure("--columns needs column names, for example --columns email,phone") }
                let names = list.split(separator: ",").map { String($0) }
                if names.isEmpty { return .failure("--columns needs at least one column name") }
                options.columns += names
            case "--delimiter":
                guard let name = scanner.value(), let delimiter = delimiters[name] else {
                    return .failure("--delimiter takes ',' ';' '|' or 'tab'")
                }
                options.delimiter = delimiter
            case "--output":
                guard let path = scanner.value() else { return .failure("--output needs a file (or '-' for standard output)") }
                options.outputPath = path
            case "--rejects":
                guard let path = scanner.value(), !path.isEmpty else { return .failure("--rejects needs a file") }
                options.rejectsPath = path
            case "--encoding":
                guard let name = scanner.value(), let encoding = InputEncoding(optionValue: name) else {
                    return .failure("--encoding takes \(InputEncoding.optionValues)")
                }
                options.encoding = encoding
            case "--as":
                guard let text = scanner.value(), let type = ValueType(rawValue: text) else {
                    return .failure("--as needs string, double or float")
                }
                options.valueType = type
            case "--concurrency":
                guard let text = scanner.value(), let number = Int(text), (1...64).contains(number) else {
                    return .failure("--concurrency needs a number from 1 to 64")
                }
                options.concurrency = number
            case "--api-url":
                guard let url = scanner.value() else { return .failure("--api-url needs a URL") }
                options.connection.apiURL = url
            case "--access-token":
                guard let token = scanner.value() else { return .failure("--access-token needs a token") }
                options.connection.accessToken = token
            case "--token-url":
                guard let url = scanner.value() else { return .failure("--token-url needs a URL") }
                options.connection.tokenURL = url
            case "--client-id":
                guard let id = scanner.value() else { return .failure("--client-id needs an id") }
                options.connection.clientID = id
            case "--data-dir":
                guard let path = scanner.value() else { return .failure("--data-dir needs a directory") }
                options.connection.dataDirectory = path
            case "--wire":
                guard let name = scanner.value(), let profile = ZeroPiiWireProfile(rawValue: name) else {
                    return .failure(WireOption.usageError)
                }
                options.connection.wireProfile = profile
            case "--ca-file":
                guard let path = scanner.value(), !path.isEmpty else { return .failure("--ca-file needs a PEM file of certificate authorities") }
                options.connection.certificateAuthorityFile = path
            case "--pinned-key":
                guard let key = scanner.value(), !key.isEmpty else {
                    return .failure("--pinned-key needs a key as sha256// and the Base64 of its SHA-256 digest")
                }
                options.connection.pinnedKeys.append(key)
            default:
                return .failure(ArgumentScanner.unknownMessage(option))
            }
        }
        if readsStandardInput {
            if !options.values.isEmpty { return .failure("give values or '-' (values from standard input), not both") }
            if options.valuesPath != nil { return .failure("give '-' or --values-from, not both") }
            options.valuesPath = "-"
        }
        let sources = [!options.values.isEmpty, options.valuesPath != nil, options.csvPath != nil].filter { $0 }.count
        if sources > 1 { return .failure("give one input: values, '-', --values-from FILE or --csv FILE") }
        if sources == 0 { return .failure("nothing to tokenize: give values, '-' (standard input), --values-from FILE or --csv FILE --columns ...") }
        if options.csvPath != nil {
            if options.columns.isEmpty { return .failure("--csv needs --columns") }
            if options.valueType != .string { return .failure("--as goes with values, not --csv") }
            if options.noHeader {
                // Positions, never names: a name would be looked for in a line of data.
                var positions: [Int] = []
                for column in options.columns {
                    guard let position = Int(column.trimmingCharacters(in: .whitespaces)), position >= 1 else {
                        return .failure("with --no-header, --columns takes column numbers counted from 1 (--columns 1,3), not names")
                    }
                    positions.append(position)
                }
                options.columnPositions = positions
            }
            if let rejects = options.rejectsPath {
                if rejects == "-" { return .failure("--rejects needs a file, not standard output") }
                if OutputTarget.same(rejects, options.outputPath) { return .failure("--rejects and --output name the same file") }
            }
        } else {
            if !options.columns.isEmpty { return .failure("--columns goes with --csv") }
            if options.delimiter != nil { return .failure("--delimiter goes with --csv") }
            if options.noHeader { return .failure("--no-header goes with --csv") }
            if options.rejectsPath != nil {
                return .failure("--rejects goes with --csv (values one per line keep their place: a failed one gets an empty output line)")
            }
            if options.encoding != nil && options.values.count > 0 { return .failure("--encoding goes with an input file or '-', not with values") }
            if options.valuesPath != nil && options.valueType != .string {
                return .failure("--as goes with values given as arguments, not with '-' or --values-from")
            }
            for (position, text) in options.values.enumerated() {
                // The position, never the value: values are personal data.
                guard let wire = options.valueType.wireString(text) else {
                    return .failure("value \(position + 1) is not a finite \(options.valueType.rawValue)")
                }
                options.values[position] = wire
            }
        }
        if let problem = options.connection.problem(environment: environment) { return .failure(problem) }
        return .options(options)
    }
}
