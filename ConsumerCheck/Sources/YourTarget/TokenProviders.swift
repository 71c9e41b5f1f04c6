import CleverTapZeroPiiSDK
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app's own auth system: an endpoint of its backend that returns
/// `{"access_token": "...", "expires_in": 3600}` for the signed-in user.
final class AuthService: Sendable {
    static let shared = AuthService(endpoint: URL(string: "https://backend.example.com/zeropii/token")!)

    let endpoint: URL

    init(endpoint: URL) {
        self.endpoint = endpoint
    }

    struct NoToken: Error {}

    /// The reference's callback shape: a non-`Sendable` closure, called once.
    func getToken(callback: @escaping (String?, Int, Error?) -> Void) {
        callback("token-from-the-backend", 3600, nil)
    }

    /// The same answer, for Swift concurrency.
    func token() async throws -> AccessTokenInfo {
        let (data, _) = try await URLSession.shared.data(from: endpoint)
        return try Self.decode(data)
    }

    static func decode(_ data: Data) throws -> AccessTokenInfo {
        guard let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let token = json["access_token"] as? String
        else { throw NoToken() }
        return AccessTokenInfo(token: token, expiresInSeconds: json["expires_in"] as? Int ?? 0)
    }
}

/// The reference's Quick Start provider, word for word: its completion never leaves the
/// thread it was called on, so the reference's signature compiles as it is.
class MyTokenProvider: AccessTokenProvider {
    func fetchToken(completion: @escaping (AccessTokenInfo?, Error?) -> Void) {
        // Fetch a token from your auth system, then call completion exactly once.
        AuthService.shared.getToken { token, expiresIn, error in
            if let error = error {
                completion(nil, error)
            } else {
                let info = AccessTokenInfo(token: token!, expiresInSeconds: expiresIn)
                completion(info, nil)
            }
        }
    }
}

/// The completion called from another queue: the parameter is `@Sendable`, as the
/// protocol declares it.
final class DispatchingTokenProvider: AccessTokenProvider {
    func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        DispatchQueue.global().async {
            completion(AccessTokenInfo(token: "token-from-a-queue", expiresInSeconds: 3600), nil)
        }
    }
}

/// The completion forwarded from a `URLSession` completion handler.
final class URLSessionTokenProvider: AccessTokenProvider {
    let endpoint: URL

    init(endpoint: URL) {
        self.endpoint = endpoint
    }

    func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        URLSession.shared.dataTask(with: endpoint) { data, _, error in
            guard let data else {
                completion(nil, error ?? AuthService.NoToken())
                return
            }
            do {
                completion(try AuthService.decode(data), nil)
            } catch {
                completion(nil, error)
            }
        }.resume()
    }
}

/// A provider that is main-actor state, such as a signed-in session object: the SDK asks
/// from its own threads, so the method is `nonisolated` and hops to the main actor.
@MainActor
final class SessionTokenProvider: AccessTokenProvider {
    private var accessToken = "token-of-the-session"

    func signIn(accessToken: String) {
        self.accessToken = accessToken
    }

    nonisolated func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        Task { @MainActor in
            completion(AccessTokenInfo(token: self.accessToken, expiresInSeconds: 3600), nil)
        }
    }
}

/// Auth code that is already `async`: the SDK's bridge needs no protocol conformance.
let asyncProvider = AsyncAccessTokenProvider {
    try await AuthService.shared.token()
}

/// A retry policy, as the reference writes one.
class MyRetryPolicy: RetryPolicy {
    func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool {
        attempt < 3 && (httpStatusCode == nil || httpStatusCode!.intValue >= 500)
    }

    func retryDelayMs(attempt: Int) -> Int {
        500 * (1 << attempt)
    }
}

/// Every provider shape, handed to `initialize` as an app does.
@MainActor
func initializeWithEveryProvider() {
    let providers: [AccessTokenProvider] = [
        MyTokenProvider(), DispatchingTokenProvider(),
        URLSessionTokenProvider(endpoint: AuthService.shared.endpoint), SessionTokenProvider(), asyncProvider,
    ]
    for provider in providers {
        ZeroPiiSDK.initialize(tokenProvider: provider, apiUrl: "https://tokens.example.com/")
    }
    ZeroPiiSDK.initialize(tokenProvider: MyTokenProvider(), apiUrl: "https://tokens.example.com/", logLevel: .info)
    ZeroPiiSDK.initialize(
        tokenProvider: MyTokenProvider(), apiUrl: "https://tokens.example.com/", logLevel: .error,
        retryPolicy: MyRetryPolicy())
}
