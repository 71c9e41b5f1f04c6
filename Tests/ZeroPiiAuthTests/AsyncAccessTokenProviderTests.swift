import Foundation
import Testing
import ZeroPiiAuth
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

struct AsyncAccessTokenProviderTests {
    struct AuthServiceDown: Error, Equatable {}

    /// Collects what a provider hands to its completion.
    final class CompletionRecorder: @unchecked Sendable {
        // Sendable: all state is guarded by `lock`.
        private let lock = NSLock()
        private var answers: [(token: String?, error: Error?)] = []

        var count: Int { lock.withLock { answers.count } }
        var first: (token: String?, error: Error?)? { lock.withLock { answers.first } }

        func record(_ info: AccessTokenInfo?, _ error: Error?) {
            lock.withLock { answers.append((info?.token, error)) }
        }
    }

    @Test func handsTheFetchedTokenToTheCompletionOnce() async throws {
        let provider = AsyncAccessTokenProvider { AccessTokenInfo(token: "fetched-token", expiresInSeconds: 600) }
        let recorder = CompletionRecorder()
        provider.fetchToken { recorder.record($0, $1) }
        try await waitUntil { recorder.count > 0 }
        #expect(recorder.first?.token == "fetched-token")
        #expect(recorder.first?.error == nil)
        await Task.yield()
        #expect(recorder.count == 1)
    }

    @Test func handsTheThrownErrorToTheCompletion() async throws {
        let provider = AsyncAccessTokenProvider { throw AuthServiceDown() }
        let recorder = CompletionRecorder()
        provider.fetchToken { recorder.record($0, $1) }
        try await waitUntil { recorder.count > 0 }
        let answer = recorder.first
        #expect(answer?.token == nil)
        #expect(answer?.error as? AuthServiceDown == AuthServiceDown())
    }

    @Test func feedsTheCacheWithOneFetchForAThousandConcurrentRequests() async throws {
        let fetches = CompletionRecorder()
        let provider = AsyncAccessTokenProvider {
            fetches.record(nil, nil)
            return AccessTokenInfo(token: "shared-token", expiresInSeconds: 3600)
        }
        let cache = AccessTokenCache(provider: provider, clock: ManualTokenClock())
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<1000 { group.addTask { try await cache.token().value } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens.count == 1000)
        #expect(Set(tokens) == ["shared-token"])
        #expect(fetches.count == 1)
    }

    @Test func aThrowingFetchBecomesTheCachesProviderError() async {
        let cache = AccessTokenCache(provider: AsyncAccessTokenProvider { throw AuthServiceDown() }, clock: ManualTokenClock())
        await #expect(throws: AuthError.providerFailed) { try await cache.token() }
    }
}
