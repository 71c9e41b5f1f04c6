import Foundation
import ZeroPiiMockServer
import ZeroPiiSDK
import ZeroPiiTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A provider that gets its tokens from the mock server, counting fetches.
final class ServerTokenProvider: NSObject, AccessTokenProvider, @unchecked Sendable {
    private let server: MockTokenizationServer
    private let lock = NSLock()
    private var count = 0

    init(server: MockTokenizationServer) { self.server = server }

    var fetches: Int { lock.withLock { count } }

    func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        lock.withLock { count += 1 }
        completion(AccessTokenInfo(token: server.issueAccessToken(), expiresInSeconds: 3600), nil)
    }
}

/// Starts the mock server on 127.0.0.1 with an ephemeral port and points the shared SDK
/// at it with the platform's default transport (libcurl on Linux, URLSession elsewhere).
func startStack(
    dataFile: String? = nil,
    retryClock: ImmediateRetryClock = ImmediateRetryClock(),
    requestTimeout: TimeInterval = 10,
    callTimeout: TimeInterval = 120,
    wireProfile: ZeroPiiWireProfile = .protocolV1,
    allowsPlaintextFallback: Bool = false,
    serverAccepts acceptedWireProfiles: Set<ZeroPiiWireProfile> = Set(ZeroPiiWireProfile.allCases),
    retryPolicy: RetryPolicy = DefaultRetryPolicy()
) throws -> (server: MockTokenizationServer, provider: ServerTokenProvider, sdk: ZeroPiiSDK) {
    var configuration = MockServerConfiguration()
    configuration.dataFile = dataFile
    configuration.acceptedWireProfiles = acceptedWireProfiles
    let server = try MockTokenizationServer(configuration: configuration)
    let provider = ServerTokenProvider(server: server)
    var sdkConfiguration = ZeroPiiConfiguration()
    sdkConfiguration.retryClock = retryClock
    sdkConfiguration.requestTimeout = requestTimeout
    sdkConfiguration.callTimeout = callTimeout
    sdkConfiguration.wireProfile = wireProfile
    sdkConfiguration.allowsPlaintextFallback = allowsPlaintextFallback
    sdkConfiguration.callbackQueue = DispatchQueue(label: "integration.callbacks")
    let sdk = ZeroPiiSDK.initialize(
        tokenProvider: provider, apiUrl: server.baseURL.absoluteString, logLevel: .off,
        retryPolicy: retryPolicy, configuration: sdkConfiguration
    )
    return (server, provider, sdk)
}
