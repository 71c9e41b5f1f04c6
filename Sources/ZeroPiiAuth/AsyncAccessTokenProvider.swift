import Foundation

/// An ``AccessTokenProvider`` made from an `async` function, for auth code written with
/// Swift concurrency.
///
/// ``AccessTokenProvider`` is callback-based because Objective-C apps implement it too.
/// This class is the bridge for auth code that is already `async`, and for classes
/// isolated to an actor, whose `async` methods it can await:
///
/// ```swift
/// let provider = AsyncAccessTokenProvider {
///     let credentials = try await authService.currentCredentials()
///     return AccessTokenInfo(token: credentials.accessToken, expiresInSeconds: credentials.lifetime)
/// }
/// ZeroPiiSDK.initialize(tokenProvider: provider, apiUrl: "https://your-api-base-url.com/")
/// ```
///
/// Each ``fetchToken(completion:)`` runs `fetch` in a new task and completes exactly once:
/// with its result, or with the error it throws.
public final class AsyncAccessTokenProvider: NSObject, AccessTokenProvider, Sendable {
    private let fetch: @Sendable () async throws -> AccessTokenInfo

    /// Creates a provider that answers every request for a token by calling `fetch`.
    ///
    /// - Parameter fetch: Returns a fresh access token, or throws when there is none.
    ///   It may be called again while an earlier call is still running only if the SDK
    ///   gave up on that call (after its provider timeout).
    public init(_ fetch: @escaping @Sendable () async throws -> AccessTokenInfo) {
        self.fetch = fetch
        super.init()
    }

    /// Runs the `fetch` function in a new task and hands its result to `completion`.
    ///
    /// - Parameter completion: Called once, from the task, with the token or the error.
    public func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        let fetch = self.fetch
        Task {
            do {
                completion(try await fetch(), nil)
            } catch {
                completion(nil, error)
            }
        }
    }
}
