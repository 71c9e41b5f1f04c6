import Foundation
import ZeroPiiSDK

/// Always the token given on the command line.
final class FixedTokenProvider: NSObject, AccessTokenProvider {
    private let token: String
    init(token: String) { self.token = token }
    func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        completion(AccessTokenInfo(token: token, expiresInSeconds: 3600), nil)
    }
}
