import Foundation
import ZeroPiiCrypto
import ZeroPiiModels

/// The server side of Docs/Protocol.md: routing, bearer checks, the v1 envelope, the
/// CleverTap-compatible envelope and plaintext (told apart by headers), limits,
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
            // RFC 9110, section 15.5.6: a 405 names the methods the endpoint does accept.
            var response = HTTPServer.errorResponse(405, "method_not_allowed", "this endpoint does not accept that method")
            response.headers.append(("Allow", request.path == "/healthz" ? "GET" : "POST"))
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

    private func tokenize(_ request: ServerRequest, operation: String, batch: Bool) -> ServerAction {
        let profile: ZeroPiiWireProfile
        switch Self.wireProfile(of: request) {
        case .success(let named): profile = named
        case .failure(let rejection): return .respond(rejection.response)
        }
        statistics.record(wireProfile: profile)
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

        guard configuration.acceptedWireProfiles.contains(profile) else {
            return .respond(Self.refusal(of: profile))
        }
        let plaintext: Data
        let sealing: ResponseSealing
        switch profile {
        case .protocolV1:
            switch openEnvelope(request.body, accessToken: accessToken, operation: operation) {
            case .success(let (opened, body)):
                sealing = .protocolV1(opened)
                plaintext = body
            case .failure(let rejection):
                return .respond(rejection.response)
            }
        case .cleverTapCompatible:
            switch Self.openCleverTapEnvelope(request.body) {
            case .success(let (key, body)):
                sealing = .cleverTap(key)
                plaintext = body
            case .failure(let rejection):
                return .respond(rejection.response)
            }
        case .plaintext:
            sealing = .none
            plaintext = request.body
        @unknown default:
            return .respond(Self.refusal(of: profile))
        }

        let values: [String]
        if batch {
            guard let decoded = try? WireBodies.BatchTokenizeRequest(wireJSON: plaintext) else {
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
            guard let decoded = try? WireBodies.TokenizeRequest(wireJSON: plaintext) else {
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
            statistics.recordVaultStored()
        } catch {
            if let vaultError = error as? VaultError { statistics.record(vaultError: vaultError) }
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

        if fault == .downgrade { return .respond(plain) }
        switch sealing {
        case .none:
            return .respond(plain)
        case .protocolV1(let envelope):
            return .respond(Self.sealV1(body, envelope: envelope, corrupt: fault == .corruptCiphertext, valueCount: values.count))
        case .cleverTap(let key):
            return .respond(Self.sealCleverTap(body, key: key, corrupt: fault == .corruptCiphertext, valueCount: values.count))
        }
    }

    /// How the answer to a request is sealed: as the request was.
    private enum ResponseSealing {
        case none
        case protocolV1(PayloadEnvelope)
        case cleverTap(SymmetricKey)
    }

    /// The profile a request's headers name: `X-ZeroPii-Encryption: v1`, `Encrypted:
    /// true`, or neither for plaintext. An unknown value, or both headers, is a 400.
    static func wireProfile(of request: ServerRequest) -> Result<ZeroPiiWireProfile, EnvelopeRejection> {
        let v1 = request.header("X-ZeroPii-Encryption")
        let cleverTap = request.header("Encrypted")
        switch (v1, cleverTap) {
        case (nil, nil):
            return .success(.plaintext)
        case (PayloadEnvelope.headerValue?, nil):
            return .success(.protocolV1)
        case (nil, let value?) where value.lowercased() == "true":
            return .success(.cleverTapCompatible)
        case (_?, _?):
            return .failure(
                EnvelopeRejection(
                    HTTPServer.errorResponse(400, "unsupported_encryption", "a request names one encryption, not both")))
        default:
            return .failure(
                EnvelopeRejection(
                    HTTPServer.errorResponse(400, "unsupported_encryption", "only X-ZeroPii-Encryption: v1 and Encrypted: true are supported")))
        }
    }

    /// The answer to a request in a profile this server was told not to accept.
    private static func refusal(of profile: ZeroPiiWireProfile) -> ServerResponse {
        switch profile {
        case .plaintext:
            return HTTPServer.errorResponse(400, "encryption_required", "this server accepts encrypted requests only")
        case .protocolV1, .cleverTapCompatible:
            return HTTPServer.errorResponse(419, "decryption_failed", "this server does not accept that envelope")
        @unknown default:
            return HTTPServer.errorResponse(400, "unsupported_encryption", "this server does not know that encryption")
        }
    }

    private static func sealV1(_ body: Data, envelope: PayloadEnvelope, corrupt: Bool, valueCount: Int) -> ServerResponse {
        guard let sealed = try? envelope.sealResponse(body) else {
            return HTTPServer.errorResponse(500, "seal_failed", "the response could not be encrypted")
        }
        var ciphertext = sealed.ciphertext
        if corrupt, !ciphertext.isEmpty {
            ciphertext[ciphertext.startIndex] ^= 0x01
        }
        let encoded = WireEnvelope.V1Response.wireJSON(
            version: PayloadEnvelope.version, requestID: envelope.requestID, iv: sealed.iv, ciphertext: ciphertext)
        var response = ServerResponse.json(status: 200, encoded, headers: [("X-ZeroPii-Encryption", PayloadEnvelope.headerValue)])
        response.valueCount = valueCount
        return response
    }

    /// Section 9: the answer under the request's key, with a fresh IV.
    private static func sealCleverTap(_ body: Data, key: SymmetricKey, corrupt: Bool, valueCount: Int) -> ServerResponse {
        let nonce = AES.GCM.Nonce()
        guard let sealed = try? AES.GCM.seal(body, using: key, nonce: nonce) else {
            return HTTPServer.errorResponse(500, "seal_failed", "the response could not be encrypted")
        }
        var ciphertext = sealed.ciphertext + sealed.tag
        if corrupt {
            ciphertext[ciphertext.startIndex] ^= 0x01
        }
        var response = ServerResponse.json(status: 200, WireEnvelope.CleverTapResponse.wireJSON(sealed: ciphertext, iv: Data(nonce)))
        response.valueCount = valueCount
        return response
    }

    /// Section 9, server side: strict Base64 of the right sizes or 400; a ciphertext that
    /// does not open under the key it came with, 419.
    static func openCleverTapEnvelope(_ body: Data) -> Result<(SymmetricKey, Data), EnvelopeRejection> {
        guard let wire = try? WireEnvelope.CleverTapRequest(wireJSON: body) else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(400, "invalid_envelope", "the envelope does not parse")))
        }
        guard let keyBytes = wire.key, keyBytes.count == 32,
            let iv = wire.iv, iv.count == PayloadEnvelope.ivByteCount,
            let ciphertext = wire.sealed, ciphertext.count >= PayloadEnvelope.tagByteCount
        else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(400, "invalid_envelope", "an envelope field has the wrong size or encoding")))
        }
        let key = SymmetricKey(data: keyBytes)
        guard let box = try? AES.GCM.SealedBox(combined: iv + ciphertext), let plaintext = try? AES.GCM.open(box, using: key) else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(419, "decryption_failed", "the request could not be decrypted")))
        }
        return .success((key, plaintext))
    }

    /// Steps 2 to 5 of the server side of section 5.
    private func openEnvelope(
        _ body: Data, accessToken: String, operation: String
    ) -> Result<(PayloadEnvelope, Data), EnvelopeRejection> {
        guard let wire = try? WireEnvelope.V1Request(wireJSON: body) else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(400, "invalid_envelope", "the envelope does not parse")))
        }
        guard wire.version == PayloadEnvelope.version else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(400, "unsupported_version", "only envelope version 1 is supported")))
        }
        guard RequestID.isValid(wire.requestID),
            let salt = wire.salt, salt.count == PayloadEnvelope.saltByteCount,
            let iv = wire.iv, iv.count == PayloadEnvelope.ivByteCount,
            let ciphertext = wire.ciphertext, ciphertext.count >= PayloadEnvelope.tagByteCount
        else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(400, "invalid_envelope", "an envelope field has the wrong size or encoding")))
        }
        let now = configuration.now()
        guard abs(Double(wire.timestamp) - now.timeIntervalSince1970) <= Self.stalenessWindow else {
            return .failure(
                EnvelopeRejection(HTTPServer.errorResponse(400, "stale_request", "the request time is more than 300 s from the server's")))
        }
        guard
            let envelope = try? PayloadEnvelope(
                accessToken: accessToken, operation: operation, requestID: wire.requestID, timestamp: wire.timestamp, salt: salt
            ), let plaintext = try? envelope.openRequest(SealedPayload(iv: iv, ciphertext: ciphertext))
        else {
            return .failure(EnvelopeRejection(HTTPServer.errorResponse(419, "decryption_failed", "the request could not be decrypted")))
        }
        // After authentication, so a forged envelope cannot burn a request id; one atomic
        // step, so of many copies of one envelope at once exactly one gets through.
        guard replays.insertIfAbsent(wire.requestID, now: now) else {
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
        let (form, repeated) = Self.formFields(request.body)
        // RFC 6749, section 3.2: no parameter may appear twice. Taking the last (or first)
        // of two client_secret values would let a proxy or a logging layer that reads the
        // other one see a different request than the one authenticated.
        if let repeated {
            return HTTPServer.errorResponse(400, "invalid_request", "the parameter '\(repeated)' is given more than once")
        }
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

    /// The fields of a form body, and the name of the first one given twice, if any (a
    /// name of at most 32 characters, since it goes into the error message; never a
    /// value).
    static func formFields(_ body: Data) -> (fields: [String: String], repeated: String?) {
        var fields: [String: String] = [:]
        var repeated: String?
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            let name = decode(parts[0])
            if fields[name] != nil && repeated == nil { repeated = String(name.prefix(32)) }
            fields[name] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return (fields, repeated)
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
            let profiles = statistics.wireProfileCounts.map { ($0.key.rawValue, $0.value) }.sorted { $0.0 < $1.0 }
                .map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
            let body =
                "{\"requests\":{\(counts)},\"wireProfiles\":{\(profiles)},\"accessTokensIssued\":\(statistics.accessTokensIssued),\"valuesStored\":\(vault.count),"
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
