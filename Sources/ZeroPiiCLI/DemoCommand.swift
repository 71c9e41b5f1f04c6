import Foundation
import ZeroPiiCrypto
import ZeroPiiSDK
import ZeroPiiTransport

/// `zeropii demo`: tokenizes one value of each type and a batch against the embedded
/// server, twice, and shows what went over the wire.
enum DemoCommand {
    static func run(_ arguments: [String]) async -> Int32 {
        var options = ServerConnection.Options()
        var scanner = ArgumentScanner(arguments)
        while let argument = scanner.next() {
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
            case .option(let name), .plain(let name):
                Usage.fail("unknown option '\(name)'", hint: "run 'zeropii help demo'")
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
                print("  batch failed: \(batch.errorMessage ?? "unknown error")")
            }
        }

        if let exchange = wire.last {
            print("\nThe last request on the wire (the body is the v1 envelope; no value travels in clear):")
            print("  POST \(exchange.request.url.path)")
            print("  X-ZeroPii-Encryption: \(exchange.request.header("X-ZeroPii-Encryption") ?? "-")")
            print("  X-Request-ID: \(exchange.request.header("X-Request-ID") ?? "-")")
            if let json = try? JSONSerialization.jsonObject(with: exchange.request.body) as? [String: Any] {
                for key in ["v", "rid", "ts", "salt", "iv", "ct"] {
                    let value = "\(json[key] ?? "-")"
                    print(
                        "  \(key.padding(toLength: 5, withPad: " ", startingAt: 0)) \(value.count > 60 ? String(value.prefix(60)) + "… (\(value.count) chars)" : value)"
                    )
                }
            }
            print(
                "  response: HTTP \(exchange.response.statusCode), X-ZeroPii-Encryption: \(exchange.response.header("X-ZeroPii-Encryption") ?? "-"), \(exchange.response.body.count) bytes of envelope"
            )
        }
        return 0
    }

    private static func describe(_ result: TokenizeResult) -> String {
        guard result.isSuccess, let token = result.token else { return "failed: \(result.errorMessage ?? "unknown error")" }
        return "\(token)  (\(result.newlyCreated ? "newlyCreated" : "exists"), \(result.dataType ?? "?"))"
    }
}

/// Sends through a URLSession transport and keeps the last exchange for display.
final class WireRecorder: HTTPTransport, @unchecked Sendable {
    // Sendable: `recorded` is guarded by `lock`; the transport is thread-safe.
    private let transport = URLSessionTransport()
    private let lock = NSLock()
    private var recorded: (request: HTTPRequest, response: HTTPResponse)?

    var last: (request: HTTPRequest, response: HTTPResponse)? { lock.withLock { recorded } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await transport.send(request)
        lock.withLock { recorded = (request, response) }
        return response
    }
}
