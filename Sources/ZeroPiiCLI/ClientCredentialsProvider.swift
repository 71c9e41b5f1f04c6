import Foundation
import ZeroPiiSDK

/// Access tokens from a client-credentials grant. The first one is fetched before the
/// run starts (``prefetch()``); a later failure (a refresh an hour on) is printed on
/// standard error once, since the SDK reports it only as "the token provider reported
/// an error".
final class ClientCredentialsProvider: NSObject, AccessTokenProvider, @unchecked Sendable {
    // Sendable: `prefetched` and `reported` are guarded by `lock`; `grant` is immutable.
    private let grant: ClientCredentialsGrant
    private let lock = NSLock()
    private var prefetched: AccessTokenInfo?
    private var reported: Set<String> = []

    init(grant: ClientCredentialsGrant) {
        self.grant = grant
    }

    /// Fetches the first token.
    /// - Throws: ``ClientCredentialsGrant/Failure`` with the reason in words.
    func prefetch() async throws {
        let token = try await grant.requestToken()
        lock.withLock { prefetched = token }
    }

    func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        if let token = lock.withLock({ () -> AccessTokenInfo? in
            defer { prefetched = nil }
            return prefetched
        }) {
            completion(token, nil)
            return
        }
        AsyncAccessTokenProvider { [self] in
            do {
                return try await grant.requestToken()
            } catch {
                let message = "\(error)"
                if lock.withLock({ reported.insert(message).inserted }) { Console.error("zeropii: \(message)") }
                throw error
            }
        }
        .fetchToken(completion: completion)
    }
}
