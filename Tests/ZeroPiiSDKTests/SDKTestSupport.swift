import Foundation
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

/// Collects log lines from the SDK's log handler.
final class CapturedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [(level: ZeroPiiLogLevel, line: String)] = []
    var all: [String] { lock.withLock { lines.map(\.line) } }
    var entries: [(level: ZeroPiiLogLevel, line: String)] { lock.withLock { lines } }
    var handler: @Sendable (ZeroPiiLogLevel, String) -> Void { { [self] level, line in lock.withLock { lines.append((level, line)) } } }
}

/// Builds a client wired to `server` with instant retries, bypassing the singleton so
/// tests can run in parallel.
func makeClient(
    server: InTestServer,
    provider: AccessTokenProvider = ScriptedProvider(),
    retryPolicy: RetryPolicy = DefaultRetryPolicy(),
    wireProfile: ZeroPiiWireProfile = .protocolV1,
    retryClock: ImmediateRetryClock = ImmediateRetryClock(),
    log: CapturedLog? = nil,
    configure: (inout ZeroPiiConfiguration) -> Void = { _ in }
) -> TokenizationClient {
    var configuration = ZeroPiiConfiguration()
    configuration.transport = server.transport
    configuration.wireProfile = wireProfile
    configuration.retryClock = retryClock
    configuration.logHandler = log?.handler
    // In the full suite the test pool's two threads can be busy for minutes (the Java
    // differential tests, the fork test), and a call that waits that long for a thread
    // must not meet the 120 s limit meant for apps; with it, a whole run of these tests
    // once ended in timeouts with no request sent. Tests of the limit set their own.
    configuration.callTimeout = 900
    configure(&configuration)
    return TokenizationClient(
        apiURL: "https://tokens.example.test/api", tokenProvider: SharedTokenProvider(provider), retryPolicy: retryPolicy,
        configuration: configuration, logger: SDKLogger(level: log == nil ? .off : .debug, handler: log?.handler)
    )
}
