import Foundation
import Testing

@testable import ZeroPiiMockServer

/// `POST oauth/token` under attack: no default credentials, a comparison that does not
/// depend on the secret's length, and failed attempts limited per client and address.
struct OAuthEndpointTests {
    static func tokenRequest(_ server: MockTokenizationServer, id: String, secret: String) throws -> (status: Int, retryAfter: String?) {
        let body = "grant_type=client_credentials&client_id=\(id)&client_secret=\(secret)"
        let client = try RawClient(port: server.port)
        client.send("POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        let response = try #require(client.readResponse())
        return (response.status, response.headers["retry-after"])
    }

    @Test func theDemoCredentialsAreOffUnlessAskedFor() throws {
        let plain = try MockTokenizationServer()
        defer { plain.stop() }
        #expect(try Self.tokenRequest(plain, id: "zeropii-demo", secret: "zeropii-demo-secret").status == 401)

        var configuration = MockServerConfiguration()
        configuration.clients = MockServerConfiguration.demoClients
        let demo = try MockTokenizationServer(configuration: configuration)
        defer { demo.stop() }
        #expect(try Self.tokenRequest(demo, id: "zeropii-demo", secret: "zeropii-demo-secret").status == 200)
    }

    @Test func theSecretComparisonTakesTheSamePathForEveryLength() {
        let expectedSecret = "s3cret-of-some-length"
        let authenticator = ClientAuthenticator(clients: ["app": expectedSecret], limit: 1000, window: 60, now: { Date() })
        for length in [0, 1, 5, expectedSecret.utf8.count - 1, expectedSecret.utf8.count, expectedSecret.utf8.count + 1, 64, 65, 1000] {
            let secret = String(repeating: "s", count: length)
            for id in ["app", "unknown"] {
                let (presented, expected) = authenticator.comparisonInputs(clientID: id, secret: secret)
                #expect(presented.count == 32 && expected.count == 32, "length \(length), \(id)")
                #expect(presented != expected, "length \(length), \(id)")
                #expect(authenticator.authenticate(clientID: id, secret: secret, address: "a") == .denied)
            }
        }
        let (presented, expected) = authenticator.comparisonInputs(clientID: "app", secret: expectedSecret)
        #expect(presented == expected && presented.count == 32)
        #expect(authenticator.authenticate(clientID: "app", secret: expectedSecret, address: "a") == .granted)
        // A known secret sent for an unknown id is no key to anything.
        #expect(authenticator.authenticate(clientID: "other", secret: expectedSecret, address: "a") == .denied)
    }

    @Test func failedAttemptsAreLimitedPerClientIDAndComeBackAtTheDocumentedRate() {
        let clock = TestClock()
        let authenticator = ClientAuthenticator(clients: ["app": "right"], limit: 5, window: 60, now: clock.now)
        for attempt in 0..<5 {
            #expect(authenticator.authenticate(clientID: "app", secret: "wrong", address: "10.0.0.\(attempt)") == .denied)
        }
        // From a fresh address, and with the right secret: the id waits for one attempt's
        // worth of allowance, 60 s / 5 = 12 s.
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.99") == .limited(retryAfterSeconds: 12))
        clock.advance(6)
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.99") == .limited(retryAfterSeconds: 6))
        clock.advance(6.1)
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.99") == .granted)
    }

    /// Found from outside: three mistyped secrets locked a whole address out for 60 s.
    /// A few mistakes cost nothing now, and the right secret works at once after them.
    @Test func aUserWhoMistypesAFewTimesIsNotShutOut() {
        let authenticator = ClientAuthenticator(clients: ["app": "right"], limit: 10, window: 60, now: TestClock().now)
        for _ in 0..<3 { #expect(authenticator.authenticate(clientID: "app", secret: "wr0ng", address: "10.0.0.1") == .denied) }
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.1") == .granted)
    }

    @Test func failedAttemptsAreLimitedPerAddress() {
        let clock = TestClock()
        let authenticator = ClientAuthenticator(clients: ["app": "right"], limit: 5, window: 60, now: clock.now)
        for attempt in 0..<5 {
            #expect(authenticator.authenticate(clientID: "guess\(attempt)", secret: "x", address: "10.0.0.1") == .denied)
        }
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.1") == .limited(retryAfterSeconds: 12))
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.2") == .granted)
        clock.advance(60)
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.1") == .granted)
    }

    /// Found from outside: the failure table held 10,000 keys and stopped recording when
    /// full, so one failure from each of 10,050 addresses switched the limit off. The
    /// table is now of fixed size and never stops counting: after 20,000 invented keys,
    /// a key is still held back after its five failures, and a fresh one is not.
    @Test func inventedKeysNeitherSwitchTheLimitOffNorLockOthersOut() {
        var budget = FailureBudget(limit: 5, window: 60, origin: 0)
        for index in 0..<20_000 { budget.recordFailure(of: "made-up-\(index)", at: 10) }
        for _ in 0..<5 { budget.recordFailure(of: "app", at: 10) }
        #expect(budget.wait(for: "app", at: 10) != nil)
        #expect(budget.wait(for: "other", at: 10) == nil)
        // Through the authenticator, with fewer keys: guesses at one id stop after five.
        let authenticator = ClientAuthenticator(clients: ["app": "right", "other": "fine"], limit: 5, window: 60, now: TestClock().now)
        for index in 0..<500 {
            _ = authenticator.authenticate(clientID: "made-up-\(index)", secret: "x", address: "10.\(index / 256).\(index % 256).1")
        }
        var limited = 0
        for attempt in 0..<50 {
            if case .limited = authenticator.authenticate(clientID: "app", secret: "guess\(attempt)", address: "172.16.\(attempt).1") { limited += 1 }
        }
        #expect(limited >= 45, "five guesses at most, then every one limited")
        #expect(authenticator.authenticate(clientID: "other", secret: "fine", address: "192.168.0.1") == .granted)
    }

    /// Found from outside: an attacker failing for a known client id from ever new
    /// addresses kept that id at its limit, and the client itself, with the right secret
    /// from its usual address, got 429 for as long as the attack lasted. A pair of id and
    /// address that logged in recently is held back only by its address's failures.
    @Test func anAttackOnAClientIDDoesNotShutOutTheClientWhereItLogsIn() {
        let clock = TestClock()
        let authenticator = ClientAuthenticator(clients: ["app": "right"], limit: 5, window: 60, now: clock.now)
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.9.9.9") == .granted)
        for attempt in 0..<200 {
            _ = authenticator.authenticate(clientID: "app", secret: "guess\(attempt)", address: "172.16.\(attempt / 250).\(attempt % 250)")
        }
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.9.9.9") == .granted)
        // Elsewhere the id is still held back, with the right secret too.
        if case .limited = authenticator.authenticate(clientID: "app", secret: "right", address: "10.8.8.8") {
        } else {
            Issue.record("a new address got past the id's limit")
        }
        // The trusted address is still held back by its own failures.
        for attempt in 0..<5 { _ = authenticator.authenticate(clientID: "app", secret: "typo\(attempt)", address: "10.9.9.9") }
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.9.9.9") == .limited(retryAfterSeconds: 12))
    }

    /// Found from outside: a flood of failures from 12,000 addresses, ten each, held back
    /// 1 % of client ids that had never failed. Ids and addresses now have tables of their
    /// own, three counters a key: after 20,000 addresses spent, a fresh address is held
    /// back about one time in 670 (and the ids' table saw none of it).
    @Test func aFloodOfSpentAddressesHoldsBackAlmostNobodyElse() {
        var addresses = FailureBudget(limit: 5, window: 60, origin: 0)
        for address in 0..<20_000 {
            for _ in 0..<5 { addresses.recordFailure(of: "10.\(address / 256).\(address % 256).7", at: 10) }
        }
        let heldBack = (0..<2_000).filter { addresses.wait(for: "192.168.\($0 / 256).\($0 % 256)", at: 10) != nil }.count
        #expect(heldBack <= 15, "\(heldBack) of 2,000 fresh addresses held back")
    }

    /// Found from outside: after failures from one address, an attempt from another told
    /// a known client id (429) from an unknown one (401). Both are counted alike now.
    @Test func unknownAndKnownClientIDsGetTheSameAnswers() {
        let authenticator = ClientAuthenticator(clients: ["app": "right"], limit: 5, window: 60, now: TestClock().now)
        var answers: [String: [ClientAuthenticator.Outcome]] = [:]
        for id in ["app", "no-such-client"] {
            for attempt in 0..<7 {
                answers[id, default: []].append(authenticator.authenticate(clientID: id, secret: "wrong", address: "10.1.\(id.count).\(attempt)"))
            }
        }
        #expect(answers["app"] == answers["no-such-client"])
        #expect(answers["app"]?.last == .limited(retryAfterSeconds: 12))
    }

    /// Found from outside: with two client_secret fields the last one won, so a layer in
    /// front that read the first saw another request than the one authenticated.
    @Test func aParameterGivenTwiceIsRefused() throws {
        var configuration = MockServerConfiguration()
        configuration.clients = ["app": "right"]
        let server = try MockTokenizationServer(configuration: configuration)
        defer { server.stop() }
        for body in [
            "grant_type=client_credentials&client_id=app&client_secret=wrong&client_secret=right",
            "grant_type=client_credentials&client_id=app&client_id=app&client_secret=right",
            "grant_type=client_credentials&grant_type=client_credentials&client_id=app&client_secret=right",
        ] {
            let client = try RawClient(port: server.port)
            client.send("POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            let response = try #require(client.readResponse())
            #expect(response.status == 400, "\(body)")
            #expect(response.body.contains("invalid_request") && response.body.contains("is given more than once"))
            #expect(!response.body.contains("right") && !response.body.contains("wrong"))
        }
        #expect(try Self.tokenRequest(server, id: "app", secret: "right").status == 200)
    }

    @Test func theServerAnswers429WithRetryAfterOnLoopback() throws {
        let clock = TestClock()
        var configuration = MockServerConfiguration()
        configuration.clients = ["app": "right"]
        configuration.failedAuthenticationLimit = 3
        configuration.failedAuthenticationWindow = 120
        configuration.now = clock.now
        let server = try MockTokenizationServer(configuration: configuration)
        defer { server.stop() }
        for _ in 0..<3 { #expect(try Self.tokenRequest(server, id: "app", secret: "wrong").status == 401) }
        let limited = try Self.tokenRequest(server, id: "app", secret: "right")
        #expect(limited.status == 429 && limited.retryAfter == "40")
        clock.advance(41)
        #expect(try Self.tokenRequest(server, id: "app", secret: "right").status == 200)
    }

    static func basicRequest(
        _ server: MockTokenizationServer, authorization: String, body: String = "grant_type=client_credentials"
    ) throws
        -> (status: Int, headers: [String: String], body: String)
    {
        let client = try RawClient(port: server.port)
        client.send(
            "POST /oauth/token HTTP/1.1\r\nHost: x\r\nAuthorization: \(authorization)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        return try #require(client.readResponse())
    }

    /// Found from outside: HTTP Basic client authentication (RFC 6749 section 2.3.1,
    /// what `curl -u` sends) was answered "the client id or secret is wrong".
    @Test func httpBasicCredentialsWorkAndBothWaysAtOnceIsA400() throws {
        var configuration = MockServerConfiguration()
        configuration.clients = ["my app": "s3cret:with+plus"]
        let server = try MockTokenizationServer(configuration: configuration)
        defer { server.stop() }
        // Form-encoded before Base64, as the RFC asks: the space, the colon and the plus.
        let encoded = Data("my+app:s3cret%3Awith%2Bplus".utf8).base64EncodedString()
        #expect(try Self.basicRequest(server, authorization: "Basic \(encoded)").status == 200)
        #expect(try Self.basicRequest(server, authorization: "basic \(encoded)").status == 200, "the scheme is case-insensitive")
        let wrong = try Self.basicRequest(server, authorization: "Basic \(Data("my+app:nope".utf8).base64EncodedString())")
        #expect(wrong.status == 401 && wrong.headers["www-authenticate"] == #"Basic realm="zeropii""#)
        let both = try Self.basicRequest(
            server, authorization: "Basic \(encoded)", body: "grant_type=client_credentials&client_id=my+app&client_secret=s3cret%3Awith%2Bplus")
        #expect(both.status == 400 && both.body.contains("in both the Authorization header and the body"))
        for malformed in ["Basic", "Basic !!!", "Basic \(Data("no-colon".utf8).base64EncodedString())", "Bearer abc"] {
            let answer = try Self.basicRequest(server, authorization: malformed)
            #expect(answer.status == 400 && answer.body.contains("not HTTP Basic client credentials"), "\(malformed)")
        }
        #expect(!wrong.body.contains("nope") && !both.body.contains("s3cret"))
    }
}
