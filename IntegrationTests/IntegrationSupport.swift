import Foundation
import ZeroPiiMockServer
import ZeroPiiSDK
import ZeroPiiTestSupport

/// A provider that gets its tokens from the mock server, counting fetches.
final class ServerTokenProvider: NSObject, AccessTokenProvider, @unchecked Sendable {
    private let server: MockTokenizationServer
    private let lock = NSLock()
    private var count = 0

    init(server: MockTokenizationServer) { self.server = server }

    var fetches: Int { lock.withLock { count } }

    func fetchToken(completion: @escaping (AccessTokenInfo?, Error?) -> Void) {
        lock.withLock { count += 1 }
        completion(AccessTokenInfo(token: server.issueAccessToken(), expiresInSeconds: 3600), nil)
    }
}

/// Starts the mock server on 127.0.0.1 with an ephemeral port and points the shared SDK
/// at it with the real URLSession transport.
func startStack(
    dataFile: String? = nil,
    retryClock: ImmediateRetryClock = ImmediateRetryClock(),
    requestTimeout: TimeInterval = 10
) throws -> (server: MockTokenizationServer, provider: ServerTokenProvider, sdk: ZeroPiiSDK) {
    var configuration = MockServerConfiguration()
    configuration.dataFile = dataFile
    let server = try MockTokenizationServer(configuration: configuration)
    let provider = ServerTokenProvider(server: server)
    var sdkConfiguration = ZeroPiiConfiguration()
    sdkConfiguration.retryClock = retryClock
    sdkConfiguration.requestTimeout = requestTimeout
    sdkConfiguration.callbackQueue = DispatchQueue(label: "integration.callbacks")
    let sdk = ZeroPiiSDK.initialize(
        tokenProvider: provider, apiUrl: server.baseURL.absoluteString, logLevel: .off,
        retryPolicy: DefaultRetryPolicy(), configuration: sdkConfiguration
    )
    return (server, provider, sdk)
}

/// The format of a string: digits as 9, lowercase as a, uppercase as A, the rest as is.
func shape(_ text: String) -> String {
    String(
        text.unicodeScalars.map { scalar -> Character in
            switch scalar.value {
            case 0x30...0x39: return "9"
            case 0x61...0x7A: return "a"
            case 0x41...0x5A: return "A"
            default: return Character(scalar)
            }
        })
}
