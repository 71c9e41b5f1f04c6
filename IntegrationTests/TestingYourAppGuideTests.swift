import Foundation
import Testing
import ZeroPiiMockServer
import ZeroPiiSDK
import ZeroPiiTestSupport

// The worked example of the "Testing your app" article (ZeroPiiSDK.docc), kept here so
// the article's code is compiled and run. Change both together.

/// App code under test: it keeps customers' emails only as tokens.
final class CustomerDirectory: @unchecked Sendable {
    // Sendable: `emailTokens` is guarded by `lock`.
    private let lock = NSLock()
    private var emailTokens: [String] = []

    var storedEmailTokens: [String] { lock.withLock { emailTokens } }

    /// Tokenizes `email` and stores the token; returns false when tokenization failed.
    func add(email: String) async -> Bool {
        let result = await ZeroPiiSDK.getInstance().tokenize(email)
        guard result.isSuccess, let token = result.token else { return false }
        lock.withLock { emailTokens.append(token) }
        return true
    }
}

struct TestingYourAppGuideTests {
    @Test func storesTokensAndNeverEmails() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            // A real tokenization server on 127.0.0.1, in this process.
            let server = try MockTokenizationServer()
            defer { server.stop() }
            let provider = AsyncAccessTokenProvider {
                AccessTokenInfo(token: server.issueAccessToken(), expiresInSeconds: 3600)
            }
            ZeroPiiSDK.initialize(tokenProvider: provider, apiUrl: server.baseURL.absoluteString)

            let directory = CustomerDirectory()
            #expect(await directory.add(email: "alice@example.com"))
            #expect(await directory.add(email: "alice@example.com"))

            let tokens = directory.storedEmailTokens
            try #require(tokens.count == 2)
            #expect(tokens[0] == tokens[1])  // the same email, the same token
            #expect(tokens[0] != "alice@example.com")
            #expect(tokens[0].contains("@"))  // the format is preserved
        }
    }

    @Test func reportsFailureWhenTheServiceIsDown() async throws {
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            // Every request gets a 503, and retries do not wait.
            let retryClock = ImmediateRetryClock()
            var configuration = ZeroPiiConfiguration()
            configuration.transport = ClosureTransport.responding(statusCode: 503)
            configuration.retryClock = retryClock
            ZeroPiiSDK.initialize(
                tokenProvider: AsyncAccessTokenProvider { AccessTokenInfo(token: "test-token", expiresInSeconds: 3600) },
                apiUrl: "https://tokenization.example.test/",
                logLevel: .off,
                retryPolicy: DefaultRetryPolicy(),
                configuration: configuration
            )

            let directory = CustomerDirectory()
            #expect(await directory.add(email: "alice@example.com") == false)
            #expect(directory.storedEmailTokens.isEmpty)
            #expect(retryClock.sleeps == [2000])  // the default policy retried once, after 2 s
        }
    }
}
