import Foundation
import Testing
import ZeroPiiCrypto
import ZeroPiiModels

@testable import ZeroPiiMockServer

/// A server clock the test moves.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval = 0
    func advance(_ seconds: TimeInterval) { lock.withLock { offset += seconds } }
    var now: @Sendable () -> Date { { [self] in Date().addingTimeInterval(lock.withLock { offset }) } }
}

struct ProtocolTests {
    let clock = TestClock()
    let service: TokenizationService

    init() {
        var configuration = MockServerConfiguration()
        configuration.now = clock.now
        configuration.adminEnabled = true
        configuration.tokenLifetime = 60
        configuration.clients = MockServerConfiguration.demoClients
        service = TokenizationService(configuration: configuration, vault: TokenVault())
    }

    func respond(_ method: String = "POST", _ path: String, headers: [(String, String)] = [], body: Data = Data()) -> ServerResponse? {
        let request = ServerRequest(method: method, path: path, query: "", headers: headers.map { ($0.0.lowercased(), $0.1) }, body: body)
        if case .respond(let response) = service.handle(request) { return response }
        return nil
    }

    func errorCode(_ response: ServerResponse?) -> String? {
        response.flatMap { try? JSONDecoder().decode(WireBodies.ErrorResponse.self, from: $0.body) }?.error.code
    }

    /// Sends an encrypted tokenize request; returns the response and the client's envelope.
    func sealed(
        value: String, token: String, sealWith sealToken: String? = nil, timestamp: Int64? = nil, requestID: String = UUID().uuidString.lowercased()
    ) throws -> (ServerResponse?, PayloadEnvelope, Data) {
        let ts = timestamp ?? Int64(Date().timeIntervalSince1970)
        let envelope = PayloadEnvelope(accessToken: sealToken ?? token, operation: "tokenize", requestID: requestID, timestamp: ts)
        let payload = try envelope.sealRequest(try JSONEncoder().encode(WireBodies.TokenizeRequest(value: value)))
        let body = try JSONEncoder().encode(
            WireBodies.EnvelopeRequest(
                v: 1, rid: requestID, ts: ts, salt: envelope.salt.base64EncodedString(),
                iv: payload.iv.base64EncodedString(), ct: payload.ciphertext.base64EncodedString()
            ))
        let response = respond(
            "POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer \(token)"), ("X-ZeroPii-Encryption", "v1")], body: body)
        return (response, envelope, body)
    }

    func openResponse(_ response: ServerResponse?, envelope: PayloadEnvelope) throws -> WireBodies.TokenizeResponse {
        let wire = try JSONDecoder().decode(WireBodies.EnvelopeResponse.self, from: try #require(response).body)
        #expect(wire.rid == envelope.requestID)
        let plaintext = try envelope.openResponse(SealedPayload(iv: Data(base64Encoded: wire.iv)!, ciphertext: Data(base64Encoded: wire.ct)!))
        return try JSONDecoder().decode(WireBodies.TokenizeResponse.self, from: plaintext)
    }

    @Test func tokenEndpointIssuesVerifiableTokens() throws {
        let ok = try #require(
            respond("POST", "/oauth/token", body: Data("grant_type=client_credentials&client_id=zeropii-demo&client_secret=zeropii-demo-secret".utf8))
        )
        #expect(ok.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: ok.body) as? [String: Any])
        #expect(json["token_type"] as? String == "Bearer" && json["expires_in"] as? Int == 60)
        let token = try #require(json["access_token"] as? String)
        #expect(service.issuer.isValid(token))
        #expect(
            respond("POST", "/oauth/token", body: Data("grant_type=client_credentials&client_id=zeropii-demo&client_secret=wrong".utf8))?.status
                == 401)
        #expect(
            respond("POST", "/oauth/token", body: Data("grant_type=password&client_id=zeropii-demo&client_secret=zeropii-demo-secret".utf8))?.status
                == 400)
        #expect(!service.issuer.isValid(token + "x"))
        #expect(!service.issuer.isValid("zpt_forged.token"))
    }

    @Test func onlyUnexpiredIssuedTokensAreAccepted() throws {
        let body = try JSONEncoder().encode(WireBodies.TokenizeRequest(value: "v"))
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", body: body)?.status == 401)
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer made-up")], body: body)?.status == 401)
        let token = service.issuer.issue()
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer \(token)")], body: body)?.status == 200)
        clock.advance(61)
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer \(token)")], body: body)?.status == 401)
        let fresh = service.issuer.issue()
        service.issuer.revokeAll()
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer \(fresh)")], body: body)?.status == 401)
        // One issued after the revocation, in the same millisecond (the clock stands
        // still), works: a client that replays at once after a 401 gets such a token.
        let afterRevocation = service.issuer.issue()
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer \(afterRevocation)")], body: body)?.status == 200)
    }

    @Test func developmentModeAcceptsAnyNonEmptyToken() throws {
        var configuration = MockServerConfiguration()
        configuration.allowAnyToken = true
        let open = TokenizationService(configuration: configuration, vault: TokenVault())
        let body = try JSONEncoder().encode(WireBodies.TokenizeRequest(value: "v"))
        let request = ServerRequest(
            method: "POST", path: "/ct-vault/api/v2/tokenize", query: "", headers: [("authorization", "Bearer anything")], body: body)
        guard case .respond(let response) = open.handle(request) else { Issue.record("no response"); return }
        #expect(response.status == 200)
        let empty = ServerRequest(method: "POST", path: "/ct-vault/api/v2/tokenize", query: "", headers: [("authorization", "Bearer ")], body: body)
        guard case .respond(let rejected) = open.handle(empty) else { Issue.record("no response"); return }
        #expect(rejected.status == 401)
    }

    @Test func theEnvelopeRoundTripsAndIsChecked() throws {
        let token = service.issuer.issue()
        let (response, envelope, body) = try sealed(value: "alice@example.com", token: token)
        #expect(response?.status == 200)
        #expect(response?.headers.contains { $0.name == "X-ZeroPii-Encryption" && $0.value == "v1" } == true)
        let decoded = try openResponse(response, envelope: envelope)
        #expect(decoded.newlyCreated && decoded.token.count == "alice@example.com".count && decoded.dataType == "string")

        // The same request again is a replay.
        let replay = respond(
            "POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer \(token)"), ("X-ZeroPii-Encryption", "v1")], body: body)
        #expect(replay?.status == 409 && errorCode(replay) == "replayed_request")

        // A minute beyond the 300 s window each way: the server reads its own clock when
        // it handles the request, and a loaded CI machine (ThreadSanitizer) once took
        // more than a second between sealing and handling, which brought "now + 301"
        // back inside the window.
        let stale = try sealed(value: "v", token: token, timestamp: Int64(Date().timeIntervalSince1970) - 360).0
        #expect(stale?.status == 400 && errorCode(stale) == "stale_request")
        let future = try sealed(value: "v", token: token, timestamp: Int64(Date().timeIntervalSince1970) + 360).0
        #expect(future?.status == 400 && errorCode(future) == "stale_request")
        let wrongKey = try sealed(value: "v", token: token, sealWith: token + "-other").0
        #expect(wrongKey?.status == 419 && errorCode(wrongKey) == "decryption_failed")
    }

    @Test func malformedEnvelopesAre400() throws {
        let token = service.issuer.issue()
        let good = try sealed(value: "v", token: token).2
        var object = try #require(try JSONSerialization.jsonObject(with: good) as? [String: Any])
        var variants: [Data] = [Data("not json".utf8), Data("{}".utf8)]
        for (key, value) in [
            ("v", 2 as Any), ("salt", "c2hvcnQ=" as Any), ("iv", "AAAA" as Any), ("ct", "AAAA" as Any), ("salt", "***" as Any), ("rid", "" as Any),
        ] {
            var changed = object
            changed[key] = value
            changed["rid"] = key == "rid" ? "" : UUID().uuidString.lowercased()
            variants.append(try JSONSerialization.data(withJSONObject: changed))
        }
        object["rid"] = UUID().uuidString.lowercased()
        for body in variants {
            let response = respond(
                "POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer \(token)"), ("X-ZeroPii-Encryption", "v1")], body: body)
            #expect(response?.status == 400, "\(String(decoding: body, as: UTF8.self))")
        }
        let wrongVersionHeader = respond(
            "POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer \(token)"), ("X-ZeroPii-Encryption", "v2")],
            body: try JSONSerialization.data(withJSONObject: object))
        #expect(wrongVersionHeader?.status == 400)
    }

    @Test func limitsAreEnforcedWithoutEchoingValues() throws {
        let auth = [("Authorization", "Bearer \(service.issuer.issue())")]
        let secret = "SECRET-VALUE-\(UUID().uuidString)"
        let cases: [(String, Data, String)] = [
            ("/ct-vault/api/v2/tokenize/batch", try JSONEncoder().encode(WireBodies.BatchTokenizeRequest(values: [])), "batch_empty"),
            (
                "/ct-vault/api/v2/tokenize/batch",
                try JSONEncoder().encode(WireBodies.BatchTokenizeRequest(values: Array(repeating: secret, count: 1001))), "batch_too_large"
            ),
            ("/ct-vault/api/v2/tokenize/batch", try JSONEncoder().encode(WireBodies.BatchTokenizeRequest(values: [secret, ""])), "invalid_value"),
            (
                "/ct-vault/api/v2/tokenize",
                try JSONEncoder().encode(WireBodies.TokenizeRequest(value: secret + String(repeating: "x", count: 4096))), "invalid_value"
            ),
            ("/ct-vault/api/v2/tokenize", Data(#"{"value": 42}"#.utf8), "invalid_json"),
            ("/ct-vault/api/v2/tokenize", Data("{\"nope\": \"\(secret)\"}".utf8), "invalid_json"),
        ]
        for (path, body, expectedCode) in cases {
            let response = respond("POST", path, headers: auth, body: body)
            let actualCode = errorCode(response)
            #expect(response?.status == 400, "\(expectedCode)")
            #expect(actualCode == expectedCode)
            let bodyText = String(decoding: response?.body ?? Data(), as: UTF8.self)
            #expect(!bodyText.contains(secret))
        }
        let maximal = String(repeating: "é", count: 2048)  // 4096 UTF-8 bytes
        #expect(
            respond("POST", "/ct-vault/api/v2/tokenize", headers: auth, body: try JSONEncoder().encode(WireBodies.TokenizeRequest(value: maximal)))?
                .status == 200)
        let full = respond(
            "POST", "/ct-vault/api/v2/tokenize/batch", headers: auth,
            body: try JSONEncoder().encode(WireBodies.BatchTokenizeRequest(values: (0..<1000).map { "v\($0)" })))
        #expect(full?.status == 200)
    }

    @Test func faultsAreInjectedInOrder() throws {
        let token = service.issuer.issue()
        let auth = [("Authorization", "Bearer \(token)")]
        let body = try JSONEncoder().encode(WireBodies.TokenizeRequest(value: "v"))
        service.faults.inject(.status(503, retryAfter: "2"), count: 2)
        service.faults.inject(.dropConnection)
        for _ in 0..<2 {
            let response = respond("POST", "/ct-vault/api/v2/tokenize", headers: auth, body: body)
            #expect(response?.status == 503 && response?.headers.contains { $0.name == "Retry-After" && $0.value == "2" } == true)
        }
        let request = ServerRequest(
            method: "POST", path: "/ct-vault/api/v2/tokenize", query: "", headers: [("authorization", "Bearer \(token)")], body: body)
        guard case .closeWithoutResponse = service.handle(request) else { Issue.record("expected a dropped connection"); return }
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", headers: auth, body: body)?.status == 200)

        service.faults.inject(.corruptCiphertext)
        let (corrupted, envelope, _) = try sealed(value: "v", token: token)
        #expect(throws: (any Error).self) { try openResponse(corrupted, envelope: envelope) }
        service.faults.inject(.downgrade)
        let downgraded = try sealed(value: "v", token: token).0
        #expect(downgraded?.status == 200 && downgraded?.headers.contains { $0.name == "X-ZeroPii-Encryption" } == false)
    }

    @Test func adminEndpointsControlFaultsAndReportStats() throws {
        let token = service.issuer.issue()
        let body = try JSONEncoder().encode(WireBodies.TokenizeRequest(value: "v"))
        #expect(respond("POST", "/__admin/faults", body: Data(#"{"kind":"status","status":429,"count":1,"retryAfter":"1"}"#.utf8))?.status == 200)
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer \(token)")], body: body)?.status == 429)
        #expect(respond("POST", "/__admin/faults", body: Data(#"{"kind":"bogus"}"#.utf8))?.status == 400)
        #expect(respond("POST", "/__admin/expire-tokens")?.status == 200)
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer \(token)")], body: body)?.status == 401)
        let stats = try #require(respond("GET", "/__admin/stats"))
        let json = try #require(try JSONSerialization.jsonObject(with: stats.body) as? [String: Any])
        let requests = try #require(json["requests"] as? [String: Int])
        #expect(requests["tokenize 429"] == 1 && requests["tokenize 401"] == 1)
        #expect(json["valuesStored"] as? Int == 0)

        let closed = TokenizationService(configuration: MockServerConfiguration(), vault: TokenVault())
        guard case .respond(let response) = closed.handle(ServerRequest(method: "GET", path: "/__admin/stats", query: "", headers: [], body: Data()))
        else { return }
        #expect(response.status == 404)
    }

    /// Found from outside: a count of 2^40 aborted the server, `retryAfter` with a CRLF
    /// added response headers, a 101 broke the framing, and faults answered requests
    /// without a token. Every field is checked, a queued fault's memory does not grow
    /// with its count, and faults apply only after the bearer check.
    @Test func adminFaultsAreCheckedAndApplyOnlyAfterAuthentication() throws {
        let refused = [
            #"{"kind":"drop","count":1099511627776}"#, #"{"kind":"drop","count":0}"#, #"{"kind":"drop","count":-1}"#,
            #"{"kind":"drop","count":"5"}"#, #"{"kind":"status","status":101}"#, #"{"kind":"status","status":600}"#,
            #"{"kind":"status","status":503,"retryAfter":"1\r\nSet-Cookie: injected=1"}"#,
            #"{"kind":"status","status":503,"retryAfter":"Wed, 21 Oct"}"#, #"{"kind":"status","status":503,"retryAfter":86401}"#,
            #"{"kind":"latency","milliseconds":60001}"#, #"{"kind":"latency","milliseconds":-5}"#, #"{"kind":"latency"}"#,
        ]
        for body in refused {
            let response = respond("POST", "/__admin/faults", body: Data(body.utf8))
            #expect(response?.status == 400, "\(body)")
            #expect(response.map { String(decoding: $0.body, as: UTF8.self).contains("invalid_fault") } == true)
        }
        #expect(service.faults.queuedCount == 0)
        #expect(respond("POST", "/__admin/faults", body: Data(#"{"kind":"drop","count":1000000}"#.utf8))?.status == 200)
        #expect(service.faults.queuedCount == 1_000_000)
        #expect(respond("POST", "/__admin/reset")?.status == 200)

        #expect(respond("POST", "/__admin/faults", body: Data(#"{"kind":"status","status":503,"retryAfter":"7"}"#.utf8))?.status == 200)
        let body = try JSONEncoder().encode(WireBodies.TokenizeRequest(value: "v"))
        // No token: the fault is neither used up nor shown.
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", body: body)?.status == 401)
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer forged")], body: body)?.status == 401)
        #expect(service.faults.queuedCount == 1)
        let token = service.issuer.issue()
        let faulted = respond("POST", "/ct-vault/api/v2/tokenize", headers: [("Authorization", "Bearer \(token)")], body: body)
        #expect(faulted?.status == 503 && faulted?.headers.contains { $0.name == "Retry-After" && $0.value == "7" } == true)
        #expect(service.faults.queuedCount == 0)
    }

    /// Found from outside: a second `Authorization` or encryption header was ignored
    /// (first wins). Either given twice is refused.
    @Test func securityHeadersGivenTwiceAreRefused() throws {
        let token = service.issuer.issue()
        let body = try JSONEncoder().encode(WireBodies.TokenizeRequest(value: "v"))
        let auth = ("Authorization", "Bearer \(token)")
        let cases: [([(String, String)], String)] = [
            ([auth, ("Authorization", "Bearer other")], "duplicate_header"),
            ([auth, ("X-ZeroPii-Encryption", "v1"), ("x-zeropii-encryption", "v1")], "unsupported_encryption"),
            ([auth, ("Encrypted", "true"), ("Encrypted", "false")], "unsupported_encryption"),
        ]
        for (headers, code) in cases {
            let response = respond("POST", "/ct-vault/api/v2/tokenize", headers: headers, body: body)
            #expect(response?.status == 400)
            #expect(response.map { String(decoding: $0.body, as: UTF8.self).contains(code) } == true, "\(headers)")
        }
        #expect(respond("POST", "/ct-vault/api/v2/tokenize", headers: [auth], body: body)?.status == 200)
    }

    /// A header value with a line break or control byte is never written, whoever set it.
    @Test func headerValuesWithControlBytesAreNeverSerialized() {
        var response = ServerResponse.json(status: 503, Data("{}".utf8))
        response.headers = [("Retry-After", "1\r\nSet-Cookie: injected=1"), ("X-Ok", "fine value"), ("X\nBad", "v")]
        let text = String(decoding: HTTPServer.serialize(response, close: true), as: UTF8.self)
        #expect(!text.contains("injected"))
        #expect(!text.contains("X\nBad"))
        #expect(text.contains("X-Ok: fine value\r\n"))
    }

    @Test func unknownPathsAndMethods() {
        #expect(respond("GET", "/nope")?.status == 404)
        #expect(respond("GET", "/ct-vault/api/v2/tokenize")?.status == 405)
        #expect(respond("GET", "/healthz")?.status == 200)
        // Found from outside: a 405 without the Allow header RFC 9110 requires.
        for (method, path, allowed) in [
            ("GET", "/ct-vault/api/v2/tokenize", "POST"), ("PUT", "/ct-vault/api/v2/tokenize/batch", "POST"), ("GET", "/oauth/token", "POST"),
            ("POST", "/healthz", "GET, HEAD"),
        ] {
            let response = respond(method, path)
            #expect(response?.status == 405)
            #expect(response?.headers.first { $0.0 == "Allow" }?.1 == allowed, "\(method) \(path)")
        }
    }
}
