import Dispatch
import Foundation
import ZeroPiiMockServer
import ZeroPiiSDK

/// `zeropii serve`: runs the mock tokenization server until SIGINT or SIGTERM.
enum ServeCommand {
    /// Every option of `zeropii serve`.
    static let optionNames: Set<String> = [
        "--help", "-h", "--host", "--port", "--data-file", "--token-ttl", "--client", "--client-file", "--demo-client",
        "--log-requests", "--allow-any-token", "--admin", "--admin-token-file", "--wire",
    ]
    /// The options that take no value.
    static let flagNames: Set<String> = ["--help", "-h", "--demo-client", "--log-requests", "--allow-any-token", "--admin"]
    /// The options whose values add up when given more than once (clients, and the wire
    /// profiles to accept); every other option may be given once.
    static let listOptionNames: Set<String> = ["--client", "--client-file", "--wire"]

    /// Whether `host` is an address only this machine reaches (127.0.0.0/8).
    static func isLoopback(_ host: String) -> Bool { host.hasPrefix("127.") }

    static func run(_ arguments: [String]) -> Int32 {
        var configuration = MockServerConfiguration()
        configuration.port = 8080
        var clients: [String: String] = [:]
        var acceptedWireProfiles: Set<ZeroPiiWireProfile> = []
        var adminTokenFile: String?
        var scanner = ArgumentScanner(arguments, options: optionNames, repeatable: listOptionNames.union(["--help", "-h"]))
        func value(for option: String) -> String? {
            guard let value = scanner.value() else {
                Usage.fail("\(option) needs a value", hint: "run 'zeropii serve --help' for the options")
                return nil
            }
            return value
        }
        while let argument = scanner.next() {
            guard case .option(let option) = argument else {
                Usage.fail("serve takes options only", hint: "run 'zeropii serve --help' for the options")
                return 2
            }
            if let repeated = scanner.repeatedOption {
                Usage.fail(ArgumentScanner.repeatedMessage(repeated), hint: "run 'zeropii serve --help' for the options")
                return 2
            }
            if flagNames.contains(option) && scanner.flagHasValue {
                Usage.fail("\(option) takes no value", hint: "run 'zeropii serve --help' for the options")
                return 2
            }
            switch option {
            case "--help", "-h":
                print(Usage.serve)
                return 0
            case "--host":
                guard let host = value(for: option) else { return 2 }
                var address = in_addr()
                guard inet_pton(AF_INET, host, &address) == 1 else {
                    Usage.fail("--host takes an IPv4 address such as 127.0.0.1 or 0.0.0.0", hint: "run 'zeropii serve --help'")
                    return 2
                }
                configuration.host = host
            case "--port":
                guard let text = value(for: option) else { return 2 }
                guard let port = UInt16(text) else {
                    Usage.fail("--port needs a number from 0 to 65535", hint: "run 'zeropii serve --help'")
                    return 2
                }
                configuration.port = port
            case "--data-file":
                guard let path = value(for: option) else { return 2 }
                configuration.dataFile = path
            case "--token-ttl":
                guard let text = value(for: option) else { return 2 }
                guard let seconds = Int(text), seconds > 0 else {
                    Usage.fail("--token-ttl needs a positive number of seconds", hint: "run 'zeropii serve --help'")
                    return 2
                }
                configuration.tokenLifetime = TimeInterval(seconds)
            case "--client":
                guard let pair = value(for: option) else { return 2 }
                guard let (id, secret) = ServeClients.parse(entry: Substring(pair)) else {
                    Usage.fail("--client needs ID:SECRET, for example --client my-app:my-secret", hint: "run 'zeropii serve --help' for the options")
                    return 2
                }
                FileHandle.standardError.write(
                    Data(
                        "zeropii: warning: --client shows the secret to anyone who can list processes; use --client-file or \(ServeClients.environmentVariable) outside tests\n"
                            .utf8))
                clients[id] = secret
            case "--client-file":
                guard let path = value(for: option) else { return 2 }
                switch ServeClients.load(file: path) {
                case .success(let loaded):
                    clients.merge(loaded) { $1 }
                case .failure(let failure):
                    Usage.fail(failure.message, hint: "run 'zeropii serve --help' for the file's format")
                    return 2
                }
                if SecretFile.isReadableByOthers(path) {
                    FileHandle.standardError.write(Data("zeropii: warning: the client file \(path) can be read by other users (chmod 600 it)\n".utf8))
                }
            case "--demo-client":
                clients.merge(MockServerConfiguration.demoClients) { $1 }
            case "--log-requests":
                configuration.requestLogger = { entry in FileHandle.standardError.write(Data((entry.line + "\n").utf8)) }
            case "--allow-any-token":
                configuration.allowAnyToken = true
            case "--admin":
                configuration.adminEnabled = true
            case "--admin-token-file":
                guard let path = value(for: option) else { return 2 }
                switch SecretFile.adminToken(path, minimumLength: MockServerConfiguration.minimumAdminTokenLength) {
                case .success(let token):
                    configuration.adminToken = token
                case .failure(let failure):
                    Usage.fail(failure.message, hint: "run 'zeropii serve --help'")
                    return 2
                }
                adminTokenFile = path
            case "--wire":
                guard let list = value(for: option) else { return 2 }
                guard let profiles = WireOption.profiles(in: list) else {
                    Usage.fail(
                        "--wire takes a comma-separated list of \(WireOption.names.joined(separator: ", "))",
                        hint: "run 'zeropii serve --help'")
                    return 2
                }
                acceptedWireProfiles.formUnion(profiles)
            default:
                Usage.fail(ArgumentScanner.unknownMessage(option), hint: "run 'zeropii serve --help' for the options")
                return 2
            }
        }
        if let adminTokenFile {
            guard configuration.adminEnabled else {
                Usage.fail("--admin-token-file needs --admin", hint: "run 'zeropii serve --help'")
                return 2
            }
            if SecretFile.isReadableByOthers(adminTokenFile) {
                Console.error("zeropii: warning: the admin token file \(adminTokenFile) can be read by other users (chmod 600 it)")
            }
        }
        // Off loopback the admin endpoints always take a token: one made now unless a file
        // gives it (printed once the server runs).
        let madeAdminToken = configuration.adminEnabled && configuration.adminToken == nil && !Self.isLoopback(configuration.host)
        if madeAdminToken { configuration.adminToken = MockServerConfiguration.makeAdminToken() }
        // The SDK's default profile only, unless --wire says more: a server that took
        // plaintext by default would hide an app that sends values in clear.
        configuration.acceptedWireProfiles = acceptedWireProfiles.isEmpty ? [.protocolV1] : acceptedWireProfiles
        if let value = ProcessInfo.processInfo.environment[ServeClients.environmentVariable] {
            switch ServeClients.load(environment: value) {
            case .success(let loaded):
                clients.merge(loaded) { current, _ in current }
            case .failure(let failure):
                Usage.fail(failure.message, hint: "run 'zeropii serve --help' for the format")
                return 2
            }
        }
        configuration.clients = clients

        let server: MockTokenizationServer
        do {
            server = try MockTokenizationServer(configuration: configuration)
        } catch {
            Console.error("zeropii: \(ServerStartFailure.describe(error, host: configuration.host, port: configuration.port))")
            return 1
        }
        if let path = configuration.dataFile {
            for note in ServerConnection.vaultNotes(for: server.vault, path: path) { Console.error(note) }
        }
        // Once the server runs (not before a port-in-use error), and not when any token is
        // accepted anyway.
        if clients.isEmpty && !configuration.allowAnyToken {
            Console.error("zeropii: no OAuth clients configured, so POST /oauth/token refuses every request (see --client-file, --demo-client)")
        }
        // Both are meant for a developer's own machine: on an address others can reach,
        // anyone there could inject faults or read the statistics, or tokenize with any token.
        if !Self.isLoopback(configuration.host) {
            if configuration.adminEnabled {
                Console.error(
                    "zeropii: warning: --admin on \(configuration.host): the admin endpoints (faults, token revocation, statistics) can be reached from the network; each request needs the admin token"
                )
            }
            if configuration.allowAnyToken {
                Console.error(
                    "zeropii: warning: --allow-any-token on \(configuration.host): anyone who can reach this address can tokenize with any bearer token"
                )
            }
        }
        if madeAdminToken, let token = configuration.adminToken {
            Console.error("zeropii: admin token (send 'Authorization: Bearer TOKEN' to /__admin/; --admin-token-file sets your own): \(token)")
        }
        if !acceptedWireProfiles.isEmpty && acceptedWireProfiles.count < ZeroPiiWireProfile.allCases.count {
            let accepted = ZeroPiiWireProfile.allCases.filter(configuration.acceptedWireProfiles.contains).map(\.rawValue)
            FileHandle.standardError.write(
                Data("zeropii: accepting only these wire profiles: \(accepted.joined(separator: ", "))\n".utf8))
        }
        // Taken before the server says it listens: whoever reads that line and sends
        // SIGTERM must find it handled.
        let stopped = DispatchSemaphore(value: 0)
        SignalWatcher.watch([SIGINT, SIGTERM]) { _ in stopped.signal() }
        // Written unbuffered, so a script reading the port sees it at once.
        Console.output(
            "zeropii mock server listening on \(server.baseURL.absoluteString) (\(RunSummary.count(server.vault.count, "value")) in the vault)")
        stopped.wait()
        server.stop()
        Console.output("zeropii mock server stopped")
        return 0
    }
}
