import Foundation
import ZeroPiiModels
import ZeroPiiWire

/// The server side of Docs/Protocol.md: routing, bearer checks, limits, the vault, the
/// token endpoint, faults and the admin endpoints. The wire profiles' server halves
/// (ZeroPiiWire) open requests and seal answers. Error bodies never echo a submitted
/// value.
final class TokenizationService: Sendable {
    static let maximumBatchSize = WireLimits.maximumBatchSize
    static let maximumValueBytes = WireLimits.maximumValueBytes

    let vault: TokenVault
    let faults: FaultInjector
    let statistics: ServerStatistics
    let issuer: AccessTokenIssuer
    let authenticator: ClientAuthenticator
    private let replays: ReplayCache
    /// Nil when the admin endpoints take no token.
    let adminTokenCheck: AdminTokenCheck?
    let configuration: MockServerConfiguration

    init(configuration: MockServerConfiguration, vault: TokenVault) {
        self.configuration = configuration
        self.vault = vault
        faults = FaultInjector()
        replays = ReplayCache(capacity: configuration.replayCacheCapacity)
        adminTokenCheck = configuration.adminToken.map { AdminTokenCheck(token: $0) }
        statistics = ServerStatistics()
        issuer = AccessTokenIssuer(lifetime: configuration.tokenLifetime, now: configuration.now)
        authenticator = ClientAuthenticator(
            clients: configuration.clients, limit: configuration.failedAuthenticationLimit,
            window: configuration.failedAuthenticationWindow, now: configuration.now)
    }

    /// 400 `duplicate_header` for a request with more than one `Authorization` header,
    /// on every endpoint that reads it: never first-wins, since a proxy in front may have
    /// read the other one.
    static func repeatedAuthorizationRefusal(_ request: ServerRequest) -> ServerResponse? {
        guard request.headerCount("Authorization") > 1 else { return nil }
        return HTTPServer.errorResponse(400, "duplicate_header", "the Authorization header is given more than once")
    }

    func handle(_ request: ServerRequest) -> ServerAction {
        let endpoint: String
        let action: ServerAction
        switch (request.method, request.path) {
        case ("POST", "/" + TokenizationOperation.tokenize.path):
            endpoint = TokenizationOperation.tokenize.label
            action = tokenize(request, operation: .tokenize)
        case ("POST", "/" + TokenizationOperation.batchTokenize.path):
            endpoint = TokenizationOperation.batchTokenize.label
            action = tokenize(request, operation: .batchTokenize)
        case ("POST", "/oauth/token"):
            endpoint = "oauth/token"
            action = .respond(issueToken(request))
        case ("GET", "/healthz"):
            endpoint = "healthz"
            action = .respond(.json(status: 200, Data(#"{"status":"ok"}"#.utf8)))
        case (_, let path) where path.hasPrefix("/__admin/") && configuration.adminEnabled:
            endpoint = "__admin"
            action = .respond(admin(request))
        case (_, "/ct-vault/api/v2/tokenize"), (_, "/ct-vault/api/v2/tokenize/batch"), (_, "/oauth/token"), (_, "/healthz"):
            endpoint = "other"
            // RFC 9110, section 15.5.6: a 405 names the methods the endpoint does accept.
            var response = HTTPServer.errorResponse(405, "method_not_allowed", "this endpoint does not accept that method")
            response.headers.append(("Allow", request.path == "/healthz" ? "GET, HEAD" : "POST"))
            action = .respond(response)
        default:
            endpoint = "other"
            action = .respond(HTTPServer.errorResponse(404, "not_found", "no such endpoint"))
        }
        if case .respond(let response) = action {
            statistics.record(endpoint: endpoint, status: response.status)
        } else {
            statistics.record(endpoint: endpoint, status: 0)
        }
        return action
    }

    // MARK: Tokenize

    /// Section "server checks, in order" of Docs/Protocol.md: the profile the headers name,
    /// the bearer token, faults, whether the profile is accepted, the envelope (the
    /// profile's server half), the body, the vault; the answer sealed as the request was.
    private func tokenize(_ request: ServerRequest, operation: TokenizationOperation) -> ServerAction {
        // Two of a header that decides security are refused, never resolved first-wins: a
        // proxy in front may read the other one.
        if request.headerCount("X-ZeroPii-Encryption") > 1 || request.headerCount("Encrypted") > 1 {
            return .respond(HTTPServer.errorResponse(400, "unsupported_encryption", "an encryption header is given more than once"))
        }
        if let refusal = Self.repeatedAuthorizationRefusal(request) { return .respond(refusal) }
        let profile: any WireProfile
        switch ZeroPiiWireProfile.named(byRequestHeader: request.header) {
        case .success(let name): profile = name.makeImplementation()
        case .failure(let rejection): return .respond(Self.response(for: rejection))
        }
        statistics.record(wireProfile: profile.name)

        guard let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer ") else {
            return .respond(HTTPServer.errorResponse(401, "unauthorized", "a bearer access token is required"))
        }
        let accessToken = String(authorization.dropFirst("Bearer ".count))
        guard !accessToken.isEmpty, configuration.allowAnyToken || issuer.isValid(accessToken) else {
            return .respond(HTTPServer.errorResponse(401, "invalid_token", "the access token is invalid or expired"))
        }
        // After the bearer check: a client without a token cannot use up or see the faults.
        let (fault, latency) = faults.next()
        if let response = Self.earlyAnswer(for: fault, after: latency) { return response }
        guard configuration.acceptedWireProfiles.contains(profile.name) else {
            return .respond(Self.response(for: profile.refusal))
        }

        let now = configuration.now()
        let incoming = IncomingWireRequest(
            body: request.body, accessToken: accessToken, operation: operation, now: now,
            claimRequestID: { [replays] in replays.claim($0, timestamp: $1, now: now) })
        let opened: OpenedWireRequest
        switch profile.openRequest(incoming) {
        case .success(let request): opened = request
        case .failure(let rejection): return .respond(Self.response(for: rejection))
        }
        let values: [String]
        switch Self.values(in: opened.body, for: operation) {
        case .success(let decoded): values = decoded
        case .failure(let rejection): return .respond(rejection.response)
        }
        let body: Data
        switch tokenizeInVault(values, batch: operation == .batchTokenize) {
        case .success(let answer): body = answer
        case .failure(let rejection): return .respond(rejection.response)
        }

        var response: ServerResponse
        if fault == .downgrade {
            response = .json(status: 200, body)
        } else {
            switch opened.sealResponse(body, fault == .corruptCiphertext) {
            case .success(let sealed): response = .json(status: 200, sealed.body, headers: sealed.headers)
            case .failure(let rejection): return .respond(Self.response(for: rejection))
            }
        }
        response.valueCount = values.count
        return .respond(response)
    }

    /// The answer a status or drop fault gives before the envelope is opened, after the
    /// fault's latency; nil to go on.
    private static func earlyAnswer(for fault: FaultInjector.Fault?, after latency: TimeInterval) -> ServerAction? {
        if latency > 0 { Thread.sleep(forTimeInterval: latency) }
        switch fault {
        case .status(let status, let retryAfter):
            var response = HTTPServer.errorResponse(status, "injected_fault", "a fault was injected for testing")
            if let retryAfter { response.headers.append(("Retry-After", retryAfter)) }
            return .respond(response)
        case .dropConnection:
            return .closeWithoutResponse
        case .corruptCiphertext, .downgrade, nil:
            return nil
        }
    }

    /// The values of a plain tokenize or batch body, within the limits of section 7.
    private static func values(in body: Data, for operation: TokenizationOperation) -> Result<[String], Rejection> {
        let values: [String]
        switch operation {
        case .batchTokenize:
            guard let decoded = try? WireBodies.BatchTokenizeRequest(wireJSON: body) else {
                return .failure(Rejection(400, "invalid_json", "the body is not a batch tokenize request"))
            }
            guard !decoded.values.isEmpty else {
                return .failure(Rejection(400, "batch_empty", "a batch holds at least one value"))
            }
            guard decoded.values.count <= maximumBatchSize else {
                return .failure(Rejection(400, "batch_too_large", "a batch holds at most 1000 values"))
            }
            values = decoded.values
        case .tokenize:
            guard let decoded = try? WireBodies.TokenizeRequest(wireJSON: body) else {
                return .failure(Rejection(400, "invalid_json", "the body is not a tokenize request"))
            }
            values = [decoded.value]
        }
        if let invalid = values.firstIndex(where: { $0.isEmpty || $0.utf8.count > maximumValueBytes }) {
            return .failure(Rejection(400, "invalid_value", "value \(invalid + 1) is empty or longer than 4096 bytes"))
        }
        return .success(values)
    }

    /// Stores `values` in the vault and writes the plain answer of section 3.
    private func tokenizeInVault(_ values: [String], batch: Bool) -> Result<Data, Rejection> {
        let entries: [TokenVault.Entry]
        do {
            entries = try vault.tokenize(values)
            statistics.recordVaultStored()
        } catch {
            if let vaultError = error as? VaultError { statistics.record(vaultError: vaultError) }
            return .failure(Rejection(500, "vault_error", "the vault could not store the values"))
        }
        let results = zip(values, entries).map { value, entry in
            WireBodies.BatchTokenizeItem(
                originalValue: value, token: entry.token, exists: entry.exists, newlyCreated: entry.newlyCreated,
                dataType: NumberFormatCheck.isNumber(value) ? "number" : "string"
            )
        }
        guard batch else {
            let only = results[0]
            return .success(
                WireBodies.TokenizeResponse(token: only.token, exists: only.exists, newlyCreated: only.newlyCreated, dataType: only.dataType)
                    .wireJSON)
        }
        let summary = WireBodies.BatchTokenizeSummary(
            processedCount: results.count, existingCount: results.reduce(0) { $0 + ($1.exists ? 1 : 0) },
            newlyCreatedCount: results.reduce(0) { $0 + ($1.newlyCreated ? 1 : 0) })
        return .success(WireBodies.BatchTokenizeResponse(results: results, summary: summary).wireJSON)
    }

    /// The error answer for a profile's rejection.
    static func response(for rejection: WireRejection) -> ServerResponse {
        HTTPServer.errorResponse(rejection.status, rejection.code.rawValue, rejection.message)
    }

    /// An error answer of this server's own checks.
    private struct Rejection: Error {
        let response: ServerResponse
        init(_ status: Int, _ code: String, _ message: String) {
            response = HTTPServer.errorResponse(status, code, message)
        }
    }
}
