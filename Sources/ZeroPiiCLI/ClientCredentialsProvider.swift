import Foundation
import ZeroPiiLocking
import ZeroPiiSDK

/// Access tokens from a client-credentials grant. The first one is fetched before the
/// run starts (``prefetch()``); a later failure (a refresh an hour on) is printed on
/// standard error once, since the SDK reports it only as "the token provider reported
/// an error".
final class ClientCredentialsProvider: NSObject, AccessTokenProvider, Sendable {
    private let grant: ClientCredentialsGrant
    private let state = Locked(State())

    private struct State {
        var prefetched: AccessTokenInfo?
        var reported: Set<String> = []
    }

    init(grant: ClientCredentialsGrant) {
        self.grant = grant
    }

    /// Fetches the first token.
    /// - Throws: ``ClientCredentialsGrant/Failure`` with the reason in words.
    func prefetch() async throws {
        let token = try await grant.requestToken()
        state.withLock { $0.prefetched = token }
    }

    func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        if let token = state.withLock({ state -> AccessTokenInfo? in
            defer { state.prefetched = nil }
            return state.prefetched
        }) {
            completion(token, nil)
            return
        }
        AsyncAccessTokenProvider { [self] in
            do {
                return try await grant.requestToken()
            } catch {
                let message = "\(error)"
                if state.withLock({ $0.reported.insert(message).inserted }) { Console.error("zeropii: \(message)") }
                throw error
            }
        }
        .fetchToken(completion: completion)
    }
}
