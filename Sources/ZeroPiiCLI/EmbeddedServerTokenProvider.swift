import Foundation
import ZeroPiiMockServer
import ZeroPiiSDK

/// Tokens straight from the embedded server.
final class EmbeddedServerTokenProvider: NSObject, AccessTokenProvider {
    private let server: MockTokenizationServer
    init(server: MockTokenizationServer) { self.server = server }
    func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        completion(AccessTokenInfo(token: server.issueAccessToken(), expiresInSeconds: 3600), nil)
    }
}
