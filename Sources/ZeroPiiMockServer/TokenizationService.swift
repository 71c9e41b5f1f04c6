import Foundation
import ZeroPiiCrypto
import ZeroPiiModels

/// The server side of PROTOCOL.md: routing, bearer checks, the v1 envelope, limits,
/// the vault, the token endpoint, faults and the admin endpoints. Error bodies never
/// echo a submitted value.
final class TokenizationService: Sendable {
    static let stalenessWindow: TimeInterval = 300
    static let maximumBatchSize = 1000
    static let maximumValueBytes = 4096

    let vault: TokenVault
    let faults: FaultInjector
    let statistics: ServerStatistics
    let issuer: AccessTokenIssuer
    private let authenticator: ClientAuthenticator
    private let replays = ReplayCache()
    private let configuration: MockServerConfiguration

    init(configuration: MockServerConfiguration, vault: TokenVault) {
        self.configuration = configuration
        self.vault = vault
        faults = FaultInjector()
        statistics = ServerStatistics()
        issuer = AccessTokenIssuer(lifetime: configuration.tokenLifetime, now: configuration.now)
        authenticator = ClientAuthenticator(
            clients: configuration.clients, limit: configuration.failedAuthenticationLimit,
            window: configuration.failedAuthenticationWindow, now: configuration.now)
    }

    func handle(_ request: ServerRequest) -> ServerAction {
        let endpoint: String
        let action: ServerAction
        switch (request.method, request.path) {
        case ("POST", "/ct-vault/api/v2/tokenize"):
            endpoint = "tokenize"
            action = tokenize(request, operation: "tokenize", batch: false)
        case ("POST", "/ct-vault/api/v2/tokenize/batch"):
            endpoint = "tokenize/batch"
            action = tokenize(request, operation: "tokenize/batch", batch: true)
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
            action = .respond(HTTPServer.errorResponse(405, "method_not_allowed", "this endpoint does not accept that method"))
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

    private func tokenize(_ request: ServerRequest, operation: String, batch: Bool) -> ServerAction {
        let (fault, latency) = faults.next()
        if latency > 0 { Thread.sleep(forTimeInterval: latency) }
        switch fault {
        case .status(let status, let retryAfter):
            var response = HTTPServer.errorResponse(status, "injected_fault", "a fault was injected for testing")
            if let retryAfter { response.headers.append(("Retry-After", retryAfter)) }
            return .respond(response)
        case .dropConnection:
            return .closeWithoutResponse
        case .corruptCiphertext, .downgrade, nil:
            break
        }

        guard let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer ") else {
            return .respond(HTTPServer.errorResponse(401, "unauthorized", "a bearer access token is required"))
        }
        let accessToken = String(authorization.dropFirst("Bearer ".count))
        guard !accessToken.isEmpty, configuration.allowAnyToken || issuer.isValid(accessToken) else {
            return .respond(HTTPServer.errorResponse(401, "invalid_token", "the access token is invalid or expired"))
        }

        var plaintext = request.body
        var envelope: PayloadEnvelope?
        if let encryption = request.header("X-ZeroPii-Encryption") {
            guard encryption == PayloadEnvelope.headerValue else {
                return .respond(HTTPServer.errorResponse(400, "unsupported_encryption", "only envelope version v1 is supported"))
            }
            switch openEnvelope(request.body, accessToken: accessToken, operation: operation) {
            case .success(let (opened, body)):
                envelope = opened
                plaintext = body
            case .failure(let rejection):
                return .respond(rejection.response)
            }
        }

        let values: [String]
        if batch {
            guard let decoded = try? JSONDecoder().decode(WireBodies.BatchTokenizeRequest.self, from: plaintext) else {
                return .respond(HTTPServer.errorResponse(400, "invalid_json", "the body is not a batch tokenize request"))
            }
            guard !decoded.values.isEmpty else {
                return .respond(HTTPServer.errorResponse(400, "batch_empty", "a batch holds at least one value"))
            }
            guard decoded.values.count <= Self.maximumBatchSize else {
                return .respond(HTTPServer.errorResponse(400, "batch_too_large", "a batch holds at most 1000 values"))
            }
            values = decoded.values
        } else {
            guard let decoded = try? JSONDecoder().decode(WireBodies.TokenizeRequest.self, from: plaintext) else {
                return .respond(HTTPServer.errorResponse(400, "invalid_json", "the body is not a tokenize request"))
            }
            values = [decoded.value]
        }
        if let invalid = values.firstIndex(where: { $0.isEmpty || $0.utf8.count > Self.maximumValueBytes }) {
            return .respond(HTTPServer.errorResponse(400, "invalid_value", "value \(invalid) is empty or longer than 4096 bytes"))
        }

        let entries: [TokenVault.Entry]
        do {
            entries = try vault.tokenize(values)
        } catch {
            return .respond(HTTPServer.errorResponse(500, "vault_error", "the vault could not store the values"))
        }
        let items = zip(values, entries).map { value, entry in
            ResponseJSON.Item(
                originalValue: value, token: entry.token, exists: entry.exists, newlyCreated: entry.newlyCreated,
                isNumber: NumberFormatCheck.isNumber(value)
            )
        }
        let body = batch ? ResponseJSON.batch(items) : ResponseJSON.single(items[0])
        var plain = ServerResponse.json(status: 200, body)
        plain.valueCount = values.count

        guard let envelope else { return .respond(plain) }
        if fault == .downgrade { return .respond(plain) }
        guard let sealed = try? envelope.sealResponse(body) else {
            return .respond(HTTPServer.errorResponse(500, "seal_failed", "the response could not be encrypted"))
        }
        var ciphertext = sealed.ciphertext
        if fault == .corruptCiphertext, !ciphertext.isEmpty {
            ciphertext[ciphertext.startIndex] ^= 0x01
        }
        let wire = WireBodies.EnvelopeResponse(
            v: PayloadEnvelope.version, rid: envelope.requestID, iv: sealed.iv.base64EncodedString(),
            ct: ciphertext.base64EncodedString()
        )
        let encoded = (try? JSONEncoder().encode(wire)) ?? Data()
        var sealedResponse = ServerResponse.json(status: 200, encoded, headers: [("X-ZeroPii-Encryption", PayloadEnvelope.headerValue)])
        sealedResponse.valueCount = values.count
        return .respond(sealedResponse)
    }

    /// Steps 2 to 5 of the server side of section 5.
    private func openEnvelope(
        _ body: Data, accessToken: String, operation: String
    ) -> Result<(PayloadEnvelope, Data), EnvelopeRejection> {
        guard let wire = try? JSONDecoder().decode(WireBodies.EnvelopeRequest.self, from: body) else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(400, "invalid_envelope", "the envelope does not parse")))
        }
        guard wire.v == PayloadEnvelope.version else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(400, "unsupported_version", "only envelope version 1 is supported")))
        }
        guard RequestID.isValid(wire.rid),
            let salt = StrictBase64.decode(wire.salt), salt.count == PayloadEnvelope.saltByteCount,
            let iv = StrictBase64.decode(wire.iv), iv.count == PayloadEnvelope.ivByteCount,
            let ciphertext = StrictBase64.decode(wire.ct), ciphertext.count >= PayloadEnvelope.tagByteCount
        else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(400, "invalid_envelope", "an envelope field has the wrong size or encoding")))
        }
        let now = configuration.now()
        guard abs(Double(wire.ts) - now.timeIntervalSince1970) <= Self.stalenessWindow else {
            return .failure(
                EnvelopeRejection(HTTPServer.errorResponse(400, "stale_request", "the request time is more than 300 s from the server's")))
        }
        guard
            let envelope = try? PayloadEnvelope(
                accessToken: accessToken, operation: operation, requestID: wire.rid, timestamp: wire.ts, salt: salt
            ), let plaintext = try? envelope.openRequest(SealedPayload(iv: iv, ciphertext: ciphertext))
        else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(419, "decryption_failed", "the request could not be decrypted")))
        }
        // After authentication, so a forged envelope cannot burn a request id; one atomic
        // step, so of many copies of one envelope at once exactly one gets through.
        guard replays.insertIfAbsent(wire.rid, now: now) else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(409, "replayed_request", "this request id was already used")))
        }
        return .success((envelope, plaintext))
    }

    struct EnvelopeRejection: Error {
        let response: ServerResponse
        init(_ response: ServerResponse) { self.response = response }
    }

    // MARK: Token endpoint

    private func issueToken(_ request: ServerRequest) -> ServerResponse {
        let form = Self.formFields(request.body)
        guard form["grant_type"] == "client_credentials" else {
            return HTTPServer.errorResponse(400, "unsupported_grant_type", "only grant_type=client_credentials is supported")
        }
        switch authenticator.authenticate(clientID: form["client_id"] ?? "", secret: form["client_secret"] ?? "", address: request.remoteAddress) {
        case .granted:
            break
        case .denied:
            return HTTPServer.errorResponse(401, "invalid_client", "the client id or secret is wrong")
        case .limited(let seconds):
            var response = HTTPServer.errorResponse(429, "too_many_attempts", "too many failed attempts; retry later")
            response.headers.append(("Retry-After", String(seconds)))
            return response
        }
        statistics.recordAccessTokenIssued()
        let body = "{\"access_token\":\"\(issuer.issue())\",\"token_type\":\"Bearer\",\"expires_in\":\(issuer.lifetimeSeconds)}"
        return .json(status: 200, Data(body.utf8), headers: [("Cache-Control", "no-store")])
    }

    static func formFields(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }

    // MARK: Admin

    private func admin(_ request: ServerRequest) -> ServerResponse {
        switch (request.method, request.path) {
        case ("GET", "/__admin/stats"):
            let counts = statistics.requestCounts.sorted { $0.key < $1.key }
                .map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
            let http = statistics.connections
            let connections =
                "\"acceptErrors\":\(http.acceptErrors),\"requestTimeouts\":\(http.requestTimeouts),\"writeTimeouts\":\(http.writeTimeouts),"
                + "\"memoryBudgetRejections\":\(http.memoryBudgetRejections),\"bufferedRequestBytes\":\(http.bufferedRequestBytes)"
            let body =
                "{\"requests\":{\(counts)},\"accessTokensIssued\":\(statistics.accessTokensIssued),\"valuesStored\":\(vault.count),"
                + "\"connections\":{\(connections)}}"
            return .json(status: 200, Data(body.utf8))
        case ("POST", "/__admin/faults"):
            guard let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
                let kind = object["kind"] as? String
            else { return HTTPServer.errorResponse(400, "invalid_fault", "expected {\"kind\": ..., \"count\": ...}") }
            let count = object["count"] as? Int ?? 1
            switch kind {
            case "status":
                guard let status = object["status"] as? Int, (100...599).contains(status) else {
                    return HTTPServer.errorResponse(400, "invalid_fault", "a status fault needs a status between 100 and 599")
                }
                faults.inject(.status(status, retryAfter: object["retryAfter"] as? String), count: count)
            case "drop": faults.inject(.dropConnection, count: count)
            case "corrupt": faults.inject(.corruptCiphertext, count: count)
            case "downgrade": faults.inject(.downgrade, count: count)
            case "latency": faults.setLatency(Double(object["milliseconds"] as? Int ?? 0) / 1000)
            default: return HTTPServer.errorResponse(400, "invalid_fault", "unknown fault kind")
            }
            return .json(status: 200, Data(#"{"ok":true}"#.utf8))
        case ("POST", "/__admin/expire-tokens"):
            issuer.revokeAll()
            return .json(status: 200, Data(#"{"ok":true}"#.utf8))
        case ("POST", "/__admin/reset"):
            faults.reset()
            return .json(status: 200, Data(#"{"ok":true}"#.utf8))
        default:
            return HTTPServer.errorResponse(404, "not_found", "no such admin endpoint")
        }
    }
}
