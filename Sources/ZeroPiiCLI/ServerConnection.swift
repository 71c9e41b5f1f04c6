import Foundation
import ZeroPiiMockServer
import ZeroPiiSDK

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where the command's tokens come from: a real API, or the embedded mock server with
/// a vault that persists between runs.
struct ServerConnection {
    let sdk: ZeroPiiSDK
    let embeddedServer: MockTokenizationServer?
    let retries: CountingRetryPolicy

    struct Options {
        var apiURL: String?
        var accessToken: String?
        var tokenURL: String?
        var clientID: String?
        var dataDirectory: String?
    }

    enum SetupError: Error, CustomStringConvertible {
        case usage(String)
        case failed(String)

        var description: String {
            switch self {
            case .usage(let message), .failed(let message): return message
            }
        }
    }

    static func open(_ options: Options, configuration: ZeroPiiConfiguration = ZeroPiiConfiguration(), announce: Bool) throws -> ServerConnection {
        let retries = CountingRetryPolicy()
        var configuration = configuration
        configuration.callbackQueue = DispatchQueue(label: "zeropii.cli.callbacks")
        if let apiURL = options.apiURL {
            let provider: AccessTokenProvider
            if let token = options.accessToken {
                provider = FixedTokenProvider(token: token)
            } else if let tokenURL = options.tokenURL, let clientID = options.clientID {
                guard let secret = ProcessInfo.processInfo.environment["ZEROPII_CLIENT_SECRET"], !secret.isEmpty else {
                    throw SetupError.usage("--token-url needs the client secret in ZEROPII_CLIENT_SECRET")
                }
                guard let url = URL(string: tokenURL) else { throw SetupError.usage("--token-url is not a URL") }
                let grant = ClientCredentialsGrant(tokenURL: url, clientID: clientID, clientSecret: secret)
                provider = AsyncAccessTokenProvider { try await grant.requestToken() }
            } else {
                throw SetupError.usage("--api-url needs --access-token TOKEN, or --token-url URL with --client-id ID")
            }
            let sdk = ZeroPiiSDK.initialize(
                tokenProvider: provider, apiUrl: apiURL, logLevel: .off, retryPolicy: retries, configuration: configuration)
            return ServerConnection(sdk: sdk, embeddedServer: nil, retries: retries)
        }
        if options.accessToken != nil || options.tokenURL != nil || options.clientID != nil {
            throw SetupError.usage("--access-token, --token-url and --client-id go with --api-url")
        }

        // $HOME first: it is what users and CI set; Foundation's home lookup on Linux
        // reads the password database instead.
        let home =
            ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        let directory = options.dataDirectory ?? (home + "/.zeropii")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SetupError.failed("the data directory \(directory) could not be created")
        }
        var serverConfiguration = MockServerConfiguration()
        serverConfiguration.dataFile = directory + "/vault.db"
        // Parallel runs on one vault take turns: each waits for the one before, so all of
        // them succeed with the same tokens.
        serverConfiguration.whenVaultIsLocked = {
            FileHandle.standardError.write(
                Data("zeropii: the vault \(directory)/vault.db is in use by another zeropii process; waiting for it\n".utf8))
        }
        let server: MockTokenizationServer
        do {
            server = try MockTokenizationServer(configuration: serverConfiguration)
        } catch {
            throw SetupError.failed("the embedded server could not start: \(error)")
        }
        if announce {
            FileHandle.standardError.write(
                Data(
                    "zeropii: no --api-url given; using the embedded mock server at \(server.baseURL.absoluteString) with its vault in \(directory)\n"
                        .utf8))
        }
        let provider = EmbeddedServerTokenProvider(server: server)
        let sdk = ZeroPiiSDK.initialize(
            tokenProvider: provider, apiUrl: server.baseURL.absoluteString, logLevel: .off, retryPolicy: retries,
            configuration: configuration
        )
        return ServerConnection(sdk: sdk, embeddedServer: server, retries: retries)
    }

    func close() {
        embeddedServer?.stop()
    }
}

/// A retry policy that counts the retries it allows, for the run's summary; otherwise
/// the SDK's default policy.
final class CountingRetryPolicy: NSObject, RetryPolicy, @unchecked Sendable {
    // Sendable: `count` is guarded by `lock`; the wrapped policy is immutable.
    private let base = DefaultRetryPolicy()
    private let lock = NSLock()
    private var count = 0

    var retries: Int { lock.withLock { count } }

    func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool {
        let retry = base.shouldRetry(attempt: attempt, httpStatusCode: httpStatusCode)
        if retry { lock.withLock { count += 1 } }
        return retry
    }

    func retryDelayMs(attempt: Int) -> Int {
        base.retryDelayMs(attempt: attempt)
    }
}

/// Always the token given on the command line.
final class FixedTokenProvider: NSObject, AccessTokenProvider {
    private let token: String
    init(token: String) { self.token = token }
    func fetchToken(completion: @escaping (AccessTokenInfo?, Error?) -> Void) {
        completion(AccessTokenInfo(token: token, expiresInSeconds: 3600), nil)
    }
}

/// Tokens straight from the embedded server.
final class EmbeddedServerTokenProvider: NSObject, AccessTokenProvider {
    private let server: MockTokenizationServer
    init(server: MockTokenizationServer) { self.server = server }
    func fetchToken(completion: @escaping (AccessTokenInfo?, Error?) -> Void) {
        completion(AccessTokenInfo(token: server.issueAccessToken(), expiresInSeconds: 3600), nil)
    }
}

/// The OAuth2 client-credentials flow (PROTOCOL.md section 8) against `tokenURL`.
struct ClientCredentialsGrant: Sendable {
    let tokenURL: URL
    let clientID: String
    let clientSecret: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func requestToken() async throws -> AccessTokenInfo {
        var request = URLRequest(url: tokenURL)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
        }
        request.httpBody = Data("grant_type=client_credentials&client_id=\(encode(clientID))&client_secret=\(encode(clientSecret))".utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200,
            let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let token = json["access_token"] as? String
        else {
            throw Failure(description: "the token endpoint refused the client credentials")
        }
        return AccessTokenInfo(token: token, expiresInSeconds: json["expires_in"] as? Int ?? 0)
    }
}
