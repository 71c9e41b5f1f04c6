import Foundation

/// An ``AccessTokenProvider`` made from an `async` function, for auth code written with
/// Swift concurrency.
///
/// ``AccessTokenProvider`` is callback-based because Objective-C apps implement it too.
/// Bridging it to `async` by hand means moving the non-`Sendable` completion into a
/// task, which strict concurrency checking rejects; this class does it once:
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
    public func fetchToken(completion: @escaping (AccessTokenInfo?, Error?) -> Void) {
        let completion = TokenCompletion(completion)
        let fetch = self.fetch
        Task {
            do {
                completion.call(try await fetch(), nil)
            } catch {
                completion.call(nil, error)
            }
        }
    }
}

/// A provider's completion, carried into a task.
private struct TokenCompletion: @unchecked Sendable {
    // Sendable: the protocol's completion is not marked `@Sendable` (its Objective-C
    // signature cannot say so), but the SDK's completions are safe to call from any
    // thread, and this one is called exactly once.
    let call: (AccessTokenInfo?, Error?) -> Void

    init(_ call: @escaping (AccessTokenInfo?, Error?) -> Void) {
        self.call = call
    }
}
