// Must not compile (Scripts/run-example.sh checks): the compiler's fix-it for a main-actor
// token provider, a conformance isolated to the main actor, would let the SDK call
// main-actor code from its own threads. Mark `fetchToken` `nonisolated` instead.
// expected-error: cannot form main actor-isolated conformance
import CleverTapZeroPiiSDK

@MainActor
final class Session: @MainActor AccessTokenProvider {
    var accessToken = "token-of-the-session"

    func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        completion(AccessTokenInfo(token: accessToken, expiresInSeconds: 3600), nil)
    }
}
