import Dispatch
import Foundation
import ZeroPiiMockServer

/// `zeropii serve`: runs the mock tokenization server until SIGINT or SIGTERM.
enum ServeCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var configuration = MockServerConfiguration()
        configuration.port = 8080
        var clients: [String: String] = [:]
        var index = 0
        func value(for option: String) -> String? {
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                Usage.fail("\(option) needs a value", hint: "run 'zeropii serve --help' for the options")
                return nil
            }
            return arguments[index]
        }
        while index < arguments.count {
            let option = arguments[index]
            switch option {
            case "--help", "-h":
                print(Usage.serve)
                return 0
            case "--host":
                guard let host = value(for: option) else { return 2 }
                configuration.host = host
            case "--port":
                guard let text = value(for: option) else { return 2 }
                guard let port = UInt16(text) else {
                    Usage.fail("--port needs a number from 0 to 65535, not '\(text)'", hint: "run 'zeropii serve --help'")
                    return 2
                }
                configuration.port = port
            case "--data-file":
                guard let path = value(for: option) else { return 2 }
                configuration.dataFile = path
            case "--token-ttl":
                guard let text = value(for: option) else { return 2 }
                guard let seconds = Int(text), seconds > 0 else {
                    Usage.fail("--token-ttl needs a positive number of seconds, not '\(text)'", hint: "run 'zeropii serve --help'")
                    return 2
                }
                configuration.tokenLifetime = TimeInterval(seconds)
            case "--client":
                guard let pair = value(for: option) else { return 2 }
                let parts = pair.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    Usage.fail("--client needs ID:SECRET, for example --client my-app:my-secret", hint: "run 'zeropii serve --help' for the options")
                    return 2
                }
                clients[String(parts[0])] = String(parts[1])
            case "--allow-any-token":
                configuration.allowAnyToken = true
            case "--admin":
                configuration.adminEnabled = true
            default:
                Usage.fail("unknown option '\(option)'", hint: "run 'zeropii serve --help' for the options")
                return 2
            }
            index += 1
        }
        if !clients.isEmpty { configuration.clients = clients }

        let server: MockTokenizationServer
        do {
            server = try MockTokenizationServer(configuration: configuration)
        } catch {
            Console.error("zeropii: \(ServerStartFailure.describe(error, host: configuration.host, port: configuration.port))")
            return 1
        }
        if server.vault.droppedBytes > 0 {
            Console.error("zeropii: dropped a torn last record (\(server.vault.droppedBytes) bytes) from the data file")
        }
        // Written unbuffered, so a script reading the port sees it at once.
        Console.output("zeropii mock server listening on \(server.baseURL.absoluteString) (\(server.vault.count) values in the vault)")

        let stopped = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { stopped.signal() }
            source.resume()
            sources.append(source)
        }
        stopped.wait()
        server.stop()
        Console.output("zeropii mock server stopped")
        return 0
    }
}
