import Foundation
import ZeroPiiSDK

/// `zeropii tokenize`: values from the command line, or columns of a CSV file.
enum TokenizeCommand {
    struct Options {
        var values: [String] = []
        /// How the values are read: as text (sent unchanged) or as numbers, sent as the
        /// SDK sends a `Double` or `Float` (`1e7` → `1.0E7`), so they get the app's token.
        var valueType = ValueType.string
        var csvPath: String?
        var columns: [String] = []
        var outputPath = "-"
        var strict = false
        var concurrency = 4
        var quiet = false
        var connection = ServerConnection.Options()
    }

    static func run(_ arguments: [String]) async -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .help:
            print(Usage.tokenize)
            return 0
        case .failure(let message):
            Usage.fail(message, hint: "run 'zeropii tokenize --help' for the options")
            return 2
        case .options(let parsed):
            options = parsed
        }

        let connection: ServerConnection
        do {
            connection = try ServerConnection.open(options.connection, announce: !options.quiet)
        } catch let error as ServerConnection.SetupError {
            if case .usage(let message) = error {
                Usage.fail(message, hint: "run 'zeropii tokenize --help' for the options")
                return 2
            }
            FileHandle.standardError.write(Data("zeropii: \(error.description)\n".utf8))
            return 1
        } catch {
            return 1
        }
        defer { connection.close() }

        if let csvPath = options.csvPath {
            return await CSVTokenizer(options: options, sdk: connection.sdk, retries: connection.retries).run(inputPath: csvPath)
        }
        return await tokenizeValues(options.values, sdk: connection.sdk)
    }

    /// Prints one token per value, in order; failures go to standard error by position.
    private static func tokenizeValues(_ values: [String], sdk: ZeroPiiSDK) async -> Int32 {
        var status: Int32 = 0
        var offset = 0
        while offset < values.count {
            let chunk = Array(values[offset..<min(values.count, offset + ZeroPiiSDK.maximumBatchSize)])
            let result = await sdk.batchTokenize(chunk)
            if result.isSuccess {
                print(result.results.map(\.token).joined(separator: "\n"))
            } else {
                FileHandle.standardError.write(
                    Data(
                        "zeropii: values \(offset + 1) to \(offset + chunk.count) could not be tokenized: \(result.errorMessage ?? "unknown error")\n"
                            .utf8))
                status = 1
            }
            offset += chunk.count
        }
        return status
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

    static func parse(_ arguments: [String]) -> Parsed {
        var options = Options()
        var index = 0
        func value(_ option: String) -> String? {
            index += 1
            guard index < arguments.count else { return nil }
            let next = arguments[index]
            return next.hasPrefix("--") ? nil : next
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h": return .help
            case "--csv":
                guard let path = value(argument) else { return .failure("--csv needs a file (or '-' for standard input)") }
                options.csvPath = path
            case "--columns":
                guard let list = value(argument) else { return .failure("--columns needs column names, for example --columns email,phone") }
                options.columns = list.split(separator: ",").map { String($0) }
                if options.columns.isEmpty { return .failure("--columns needs at least one column name") }
            case "--output":
                guard let path = value(argument) else { return .failure("--output needs a file (or '-' for standard output)") }
                options.outputPath = path
            case "--as":
                guard let text = value(argument), let type = ValueType(rawValue: text) else {
                    return .failure("--as needs string, double or float")
                }
                options.valueType = type
            case "--strict": options.strict = true
            case "--quiet": options.quiet = true
            case "--concurrency":
                guard let text = value(argument), let number = Int(text), (1...64).contains(number) else {
                    return .failure("--concurrency needs a number from 1 to 64")
                }
                options.concurrency = number
            case "--api-url":
                guard let url = value(argument) else { return .failure("--api-url needs a URL") }
                options.connection.apiURL = url
            case "--access-token":
                guard let token = value(argument) else { return .failure("--access-token needs a token") }
                options.connection.accessToken = token
            case "--token-url":
                guard let url = value(argument) else { return .failure("--token-url needs a URL") }
                options.connection.tokenURL = url
            case "--client-id":
                guard let id = value(argument) else { return .failure("--client-id needs an id") }
                options.connection.clientID = id
            case "--data-dir":
                guard let path = value(argument) else { return .failure("--data-dir needs a directory") }
                options.connection.dataDirectory = path
            case "--":
                options.values.append(contentsOf: arguments[(index + 1)...])
                index = arguments.count
                continue
            default:
                if argument.hasPrefix("--") { return .failure("unknown option '\(argument)'") }
                options.values.append(argument)
            }
            index += 1
        }
        if options.csvPath != nil {
            if !options.values.isEmpty { return .failure("give either values or --csv, not both") }
            if options.columns.isEmpty { return .failure("--csv needs --columns") }
            if options.valueType != .string { return .failure("--as goes with values, not --csv") }
        } else {
            if !options.columns.isEmpty { return .failure("--columns goes with --csv") }
            if options.values.isEmpty { return .failure("nothing to tokenize: give values or --csv FILE --columns ...") }
            for (position, text) in options.values.enumerated() {
                // The position, never the value: values are personal data.
                guard let wire = options.valueType.wireString(text) else {
                    return .failure("value \(position + 1) is not a finite \(options.valueType.rawValue)")
                }
                options.values[position] = wire
            }
        }
        return .options(options)
    }
}
