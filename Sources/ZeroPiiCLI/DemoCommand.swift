import Foundation
import ZeroPiiCrypto
import ZeroPiiLocking
import ZeroPiiSDK
import ZeroPiiTransport

/// `zeropii demo`: tokenizes one value of each type and a batch against the embedded
/// server, twice, and shows what went over the wire.
enum DemoCommand {
    /// Every option of `zeropii demo`.
    static let optionNames: Set<String> = ["--help", "-h", "--data-dir", "--wire"]
    /// The options that take no value.
    static let flagNames: Set<String> = ["--help", "-h"]

    static func run(_ arguments: [String]) async -> Int32 {
        var options = ServerConnection.Options()
        var onlyProfile: ZeroPiiWireProfile?
        var scanner = ArgumentScanner(arguments, options: optionNames)
        while let argument = scanner.next() {
            if let repeated = scanner.repeatedOption {
                Usage.fail(ArgumentScanner.repeatedMessage(repeated), hint: "run 'zeropii help demo'")
                return 2
            }
            switch argument {
            case .option("--help"), .option("-h"):
                print(Usage.demo)
                return 0
            case .option("--data-dir"):
                guard let directory = scanner.value() else {
                    Usage.fail("--data-dir needs a directory", hint: "run 'zeropii help demo'")
                    return 2
                }
                options.dataDirectory = directory
            case .option("--wire"):
                guard let name = scanner.value(), let profile = ZeroPiiWireProfile(rawValue: name) else {
                    Usage.fail(WireOption.usageError, hint: "run 'zeropii help demo'")
                    return 2
                }
                options.wireProfile = profile
                onlyProfile = profile
            case .option(let name), .plain(let name):
                Usage.fail(ArgumentScanner.unknownMessage(name), hint: "run 'zeropii help demo'")
                return 2
            }
        }

        // A transport that records what travels, in front of the real one.
        let wire = WireRecorder()
        var configuration = ZeroPiiConfiguration()
        configuration.transport = wire
        let connection: ServerConnection
        do {
            connection = try await ServerConnection.open(options, configuration: configuration, announce: true)
        } catch {
            Console.error("zeropii: \(error)")
            return 1
        }
        defer { connection.close() }
        let sdk = connection.sdk

        print("ZeroPii demo against the embedded server at \(connection.embeddedServer?.baseURL.absoluteString ?? "?")\n")
        var failures = 0
        for pass in 1...2 {
            print(pass == 1 ? "First pass (new values get newlyCreated on the very first run):" : "\nSecond pass (the same values now exist):")
            let singles: [(String, TokenizeResult)] = [
                ("string  \"alice@example.com\"", await sdk.tokenize("alice@example.com")),
                ("Int     42", await sdk.tokenize(42)),
                ("Int64   9876543210", await sdk.tokenize(Int64(9_876_543_210))),
                ("Float   3.14", await sdk.tokenize(Float(3.14))),
                ("Double  2.71828", await sdk.tokenize(2.71828)),
                ("Bool    true", await sdk.tokenize(true)),
            ]
            for (label, result) in singles {
                if !result.isSuccess { failures += 1 }
                print("  \(label.padding(toLength: 30, withPad: " ", startingAt: 0)) → \(describe(result))")
            }
            let batch = await sdk.batchTokenize(["bob@example.com", "+1 (555) 010-2345", "carol@example.com"])
            if let summary = batch.summary {
                print(
                    "  batch of 3                     → processed \(summary.processedCount), new \(summary.newlyCreatedCount), existing \(summary.existingCount)"
                )
                for item in batch.results {
                    print("      \(item.originalValue.padding(toLength: 22, withPad: " ", startingAt: 0)) → \(item.token)")
                }
            } else {
                failures += 1
                print("  batch failed: \(NetworkFailureText.describe(batch.errorMessage ?? "unknown error"))")
            }
        }
        // A tour whose calls failed is not a success, whatever it printed.
        guard failures == 0 else {
            Console.error("zeropii: demo: \(failures) of 14 calls failed")
            return 1
        }

        let shown = onlyProfile.map { [$0] } ?? ZeroPiiWireProfile.allCases
        print("\nOn the wire: one tokenize request and its answer\(shown.count > 1 ? " in each profile" : "") (long fields shortened)")
        for profile in shown {
            let profileSDK = profile == options.wireProfile ? sdk : connection.reinitialized(wireProfile: profile)
            _ = await profileSDK.tokenize("alice@example.com")
            guard let exchange = wire.last else { continue }
            print("\n  \(profile.rawValue): \(summary(of: profile))")
            print("  POST \(exchange.request.url.path)")
            for header in ["X-ZeroPii-Encryption", "Encrypted", "X-Request-ID"] {
                if let value = exchange.request.header(header) { print("  \(header): \(value)") }
            }
            print("  \(shortened(exchange.request.body))")
            print(
                "  → HTTP \(exchange.response.statusCode)\(exchange.response.header("X-ZeroPii-Encryption").map { ", X-ZeroPii-Encryption: \($0)" } ?? "")"
            )
            print("  \(shortened(exchange.response.body))")
        }
        return 0
    }

    private static func summary(of profile: ZeroPiiWireProfile) -> String {
        switch profile {
        case .protocolV1: return "the ZeroPii v1 envelope, keys derived from the access token; no value travels in clear"
        case .cleverTapCompatible:
            return "the envelope of CleverTap's Android SDK; the key (itk) travels next to the ciphertext, so only TLS protects it"
        case .plaintext: return "plain JSON; only TLS protects it"
        }
    }

    /// The body as text with every JSON string longer than 44 characters cut short.
    private static func shortened(_ body: Data) -> String {
        let text = NSMutableString(string: String(decoding: body, as: UTF8.self))
        guard let pattern = try? NSRegularExpression(pattern: #""((?:[^"\\]|\\.){45,})""#) else { return text as String }
        for match in pattern.matches(in: text as String, range: NSRange(location: 0, length: text.length)).reversed() {
            let field = text.substring(with: match.range(at: 1))
            text.replaceCharacters(in: match.range(at: 1), with: "\(field.prefix(40))… (\(field.count) chars)")
        }
        return text as String
    }

    private static func describe(_ result: TokenizeResult) -> String {
        guard result.isSuccess, let token = result.token else {
            return "failed: \(NetworkFailureText.describe(result.errorMessage ?? "unknown error"))"
        }
        return "\(token)  (\(result.newlyCreated ? "newlyCreated" : "exists"), \(result.dataType ?? "?"))"
    }
}

/// Sends through the default transport and keeps the last exchange for display.
///
/// The transport is made at the first request: on Linux, Foundation makes folders under
/// `HOME` (`.cache`, `.local`) when a session is made, and the data directory must be
/// checked first, so that a `HOME` that does not exist stays that way.
final class WireRecorder: HTTPTransport {
    private let transport = Locked<(any HTTPTransport)?>(nil)
    private let recorded = Locked<(request: TransportRequest, response: TransportResponse)?>(nil)

    var last: (request: TransportRequest, response: TransportResponse)? { recorded.withLock { $0 } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let transport = self.transport.withLock { made in
            if let made { return made }
            let new = DefaultTransport.make(maximumConnections: 1).transport
            made = new
            return new
        }
        let response = try await transport.send(request)
        recorded.withLock { $0 = (request, response) }
        return response
    }
}
