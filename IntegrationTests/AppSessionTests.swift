import Foundation
import Testing
import ZeroPiiMockServer
import ZeroPiiSDK
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records whether a session was invalidated.
final class SessionWatcher: NSObject, URLSessionDelegate, @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var invalidated = false

    var wasInvalidated: Bool { lock.withLock { invalidated } }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {
        lock.withLock { invalidated = true }
    }
}

/// A `URLSession` the app owns stays the app's, whatever the SDK does with its transport.
@Suite(.serialized)
struct AppSessionTests {
    @Test func theAppsSessionSurvivesASecondInitialize() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let server = try MockTokenizationServer(configuration: MockServerConfiguration())
            defer { server.stop() }
            let watcher = SessionWatcher()
            let appSession = URLSession(configuration: .ephemeral, delegate: watcher, delegateQueue: nil)
            defer { appSession.invalidateAndCancel() }

            weak var firstTransport: URLSessionTransport?
            do {
                let transport = URLSessionTransport(session: appSession)
                firstTransport = transport
                var configuration = ZeroPiiConfiguration()
                configuration.transport = transport
                let sdk = ZeroPiiSDK.initialize(
                    tokenProvider: ServerTokenProvider(server: server), apiUrl: server.baseURL.absoluteString, logLevel: .off,
                    retryPolicy: DefaultRetryPolicy(), configuration: configuration
                )
                #expect(await sdk.tokenize("alice@example.com").isSuccess)
            }
            // A log-level change or a user switch: initialize again, with another transport.
            var replacement = ZeroPiiConfiguration()
            replacement.transport = ClosureTransport.responding(statusCode: 503)
            ZeroPiiSDK.initialize(
                tokenProvider: ServerTokenProvider(server: server), apiUrl: server.baseURL.absoluteString, logLevel: .debug,
                retryPolicy: DefaultRetryPolicy(), configuration: replacement
            )
            // The first transport goes once its last request has let go of it: its deinit ran.
            #expect(await waitUntil(atMost: 10) { firstTransport == nil })

            // The app's next request on its session works (an invalidated session would
            // stop the process with "Task created in a session that has been invalidated").
            let response = try await URLSessionTransport(session: appSession).send(
                TransportRequest(method: "POST", url: server.baseURL.appendingPathComponent("ct-vault/api/v2/tokenize"), timeout: 10)
            )
            #expect(response.statusCode == 401)  // no access token sent
            #expect(!watcher.wasInvalidated)
        }
    }
}
