import Foundation

/// A real HTTP tokenization server that speaks Docs/Protocol.md, for tests, demos and local
/// development: format-preserving deterministic tokens, an optional durable vault
/// file, the client-credentials token endpoint, and faults on demand.
///
/// ```swift
/// let server = try MockTokenizationServer()          // 127.0.0.1, a free port
/// let token = server.issueAccessToken()
/// ZeroPiiSDK.initialize(tokenProvider: ..., apiUrl: server.baseURL.absoluteString)
/// server.faults.inject(.status(503, retryAfter: "1"))
/// server.stop()
/// ```
public final class MockTokenizationServer: @unchecked Sendable {
    // Sendable: all stored properties are immutable references to thread-safe objects.
    private let http: HTTPServer
    private let service: TokenizationService

    /// The vault (tokens, and which values it holds).
    public var vault: TokenVault { service.vault }
    /// Faults to inject into the tokenize endpoints.
    public var faults: FaultInjector { service.faults }
    /// Request and token counters.
    public var statistics: ServerStatistics { service.statistics }
    /// The port the server listens on.
    public var port: UInt16 { http.port }
    /// `http://host:port/`, the `apiUrl` for the SDK.
    public var baseURL: URL { URL(string: "http://\(http.host):\(http.port)/")! }

    /// Opens the vault and starts listening.
    public convenience init(configuration: MockServerConfiguration = MockServerConfiguration()) throws {
        let vault = try configuration.dataFile.map { try TokenVault(path: $0, whenLocked: configuration.whenVaultIsLocked) } ?? TokenVault()
        try self.init(configuration: configuration, vault: vault)
    }

    /// A server on a vault opened by the caller (tests open one with a failing file system).
    init(configuration: MockServerConfiguration, vault: TokenVault) throws {
        let service = TokenizationService(configuration: configuration, vault: vault)
        self.service = service
        var rejected: HTTPServer.RejectionObserver?
        if let logger = configuration.requestLogger {
            rejected = { status, started in logger(RequestLogEntry(rejectedWith: status, started: started)) }
        }
        http = try HTTPServer(
            host: configuration.host, port: configuration.port, limits: configuration.limits, statistics: service.statistics.connections,
            rejected: rejected
        ) { request in
            guard let logger = configuration.requestLogger else { return service.handle(request) }
            let started = Date()
            let action = service.handle(request)
            logger(RequestLogEntry(request: request, started: started, action: action))
            return action
        }
    }

    /// An access token, as `POST oauth/token` would issue it.
    public func issueAccessToken() -> String {
        service.statistics.recordAccessTokenIssued()
        return service.issuer.issue()
    }

    /// Makes every access token issued so far invalid.
    public func expireAllAccessTokens() {
        service.issuer.revokeAll()
    }

    /// Stops listening, closes every connection, and closes the vault's data file so
    /// that another server may open it.
    public func stop() {
        http.stop()
        service.vault.close()
    }
}
