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

    @Test func failedAttemptsAreLimitedPerClientID() {
        let clock = TestClock()
        let authenticator = ClientAuthenticator(clients: ["app": "right"], limit: 5, window: 60, now: clock.now)
        for attempt in 0..<5 {
            #expect(authenticator.authenticate(clientID: "app", secret: "wrong", address: "10.0.0.\(attempt)") == .denied)
        }
        // From a fresh address, and with the right secret: the id is locked for the window.
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.99") == .limited(retryAfterSeconds: 60))
        clock.advance(30)
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.99") == .limited(retryAfterSeconds: 30))
        clock.advance(31)
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.99") == .granted)
    }

    @Test func failedAttemptsAreLimitedPerAddress() {
        let clock = TestClock()
        let authenticator = ClientAuthenticator(clients: ["app": "right"], limit: 5, window: 60, now: clock.now)
        for attempt in 0..<5 {
            #expect(authenticator.authenticate(clientID: "guess\(attempt)", secret: "x", address: "10.0.0.1") == .denied)
        }
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.1") == .limited(retryAfterSeconds: 60))
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.2") == .granted)
        clock.advance(60)
        #expect(authenticator.authenticate(clientID: "app", secret: "right", address: "10.0.0.1") == .granted)
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
        #expect(limited.status == 429 && limited.retryAfter == "120")
        clock.advance(121)
        #expect(try Self.tokenRequest(server, id: "app", secret: "right").status == 200)
    }
}
