import Foundation
import Testing
import ZeroPiiAuth
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

typealias ManualClock = ManualTokenClock

struct AccessTokenCacheTests {
    @Test func reusesATokenUntilTheMarginBeforeExpiry() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(.answer(expiresIn: 100))
        let cache = AccessTokenCache(provider: provider, clock: clock)
        let first = try await cache.token()
        clock.advance(by: 69)  // margin is min(30 s, 50 s) = 30 s
        #expect(try await cache.token() == first)
        #expect(provider.calls == 1)
        clock.advance(by: 1)
        let second = try await cache.token()
        #expect(second != first)
        #expect(second.generation > first.generation)
        #expect(provider.calls == 2)
    }

    @Test func shortLivedTokensUseHalfTheirLifetimeAsMargin() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(.answer(expiresIn: 20))
        let cache = AccessTokenCache(provider: provider, clock: clock)
        _ = try await cache.token()
        clock.advance(by: 9.9)
        _ = try await cache.token()
        #expect(provider.calls == 1)
        clock.advance(by: 0.1)
        _ = try await cache.token()
        #expect(provider.calls == 2)
    }

    @Test func nonPositiveLifetimesServeTheirWaitersButAreNotCached() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(.hold)
        let cache = AccessTokenCache(provider: provider, clock: clock)
        let waiters = (0..<20).map { _ in Task { try await cache.token() } }
        try await waitUntil { provider.heldCount == 1 }
        provider.release(token: "one-shot", expiresIn: 0)
        var values = Set<String>()
        for waiter in waiters { values.insert(try await waiter.value.value) }
        // Waiters that arrived after the answer fetch again, so more than one token may
        // be seen, but the first fetch served everyone who was waiting for it.
        #expect(values.contains("one-shot"))
        provider.setBehaviour(.answer(expiresIn: 0))
        _ = try await cache.token()
        _ = try await cache.token()
        #expect(provider.calls >= 3)
    }

    @Test func aThousandConcurrentRequestsCauseOneFetch() async throws {
        let provider = ScriptedProvider(.hold)
        let cache = AccessTokenCache(provider: provider, clock: ManualClock())
        let tokens = try await withThrowingTaskGroup(of: AccessToken.self) { group in
            for _ in 0..<1000 { group.addTask { try await cache.token() } }
            try await waitUntil { provider.heldCount == 1 }
            provider.release(token: "shared", expiresIn: 3600)
            return try await group.reduce(into: [AccessToken]()) { $0.append($1) }
        }
        #expect(tokens.count == 1000)
        #expect(Set(tokens.map(\.value)) == ["shared"])
        #expect(provider.calls == 1)
    }

    @Test func aThousandConcurrent401sCauseOneRefresh() async throws {
        let provider = ScriptedProvider(.answer(expiresIn: 3600))
        let cache = AccessTokenCache(provider: provider, clock: ManualClock())
        let rejected = try await cache.token()
        provider.setBehaviour(.hold)
        let replacements = try await withThrowingTaskGroup(of: AccessToken.self) { group in
            for _ in 0..<1000 { group.addTask { try await cache.token(replacing: rejected) } }
            try await waitUntil { provider.heldCount == 1 }
            provider.release(token: "refreshed", expiresIn: 3600)
            return try await group.reduce(into: [AccessToken]()) { $0.append($1) }
        }
        #expect(Set(replacements.map(\.value)) == ["refreshed"])
        #expect(provider.calls == 2)
    }

    @Test func aRequestWithAnOlderTokenReplaysWithTheCurrentOneWithoutFetching() async throws {
        let provider = ScriptedProvider(.answer(expiresIn: 3600))
        let cache = AccessTokenCache(provider: provider, clock: ManualClock())
        let old = try await cache.token()
        let current = try await cache.token(replacing: old)
        #expect(provider.calls == 2)
        #expect(try await cache.token(replacing: old) == current)
        #expect(provider.calls == 2)
    }

    @Test func refreshLoopsAreStopped() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(.answer(expiresIn: 3600))
        let cache = AccessTokenCache(provider: provider, clock: clock)
        var token = try await cache.token()
        for _ in 0..<AccessTokenCache.maximumRefreshes {
            token = try await cache.token(replacing: token)
        }
        await #expect(throws: AuthError.refreshLimitReached) { try await cache.token(replacing: token) }
        clock.advance(by: AccessTokenCache.refreshWindow)
        let afterWindow = try await cache.token(replacing: token)
        #expect(afterWindow.generation > token.generation)
    }

    @Test func aSecondCompletionIsIgnoredAndLogged() async throws {
        let log = LogRecorder()
        let provider = ScriptedProvider(.answerTwice)
        let cache = AccessTokenCache(provider: provider, clock: ManualClock(), log: log.sink)
        let token = try await cache.token()
        #expect(token.value == "secret-token-1")
        #expect(try await cache.token().value == "secret-token-1")
        #expect(log.all.count == 1)
        #expect(log.all.allSatisfy { !$0.contains("secret-token") })
    }

    @Test func aSilentProviderTimesOut() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(.never)
        let cache = AccessTokenCache(provider: provider, clock: clock, fetchTimeout: 30)
        let request = Task { try await cache.token() }
        try await waitUntil { clock.sleeperCount == 1 }
        clock.advance(by: 29)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: 1)
        await #expect(throws: AuthError.providerTimedOut) { try await request.value }
        // The next request asks the provider again rather than waiting on the dead call.
        provider.setBehaviour(.answer(expiresIn: 60))
        #expect(try await cache.token().value == "secret-token-2")
    }

    @Test func providerErrorsBecomeAClearError() async throws {
        let cache = AccessTokenCache(provider: ScriptedProvider(.fail), clock: ManualClock())
        await #expect(throws: AuthError.providerFailed) { try await cache.token() }
        #expect(AuthError.providerFailed.description.contains("access token could not be obtained"))
    }

    @Test func descriptionsHideTokens() {
        #expect(!AccessTokenInfo(token: "secret-token-9", expiresInSeconds: 5).description.contains("secret"))
        #expect(!AccessToken(value: "secret-token-9", generation: 1).description.contains("secret"))
    }

    @Test func theSystemClockMovesForward() async throws {
        let clock = SystemTokenClock()
        let before = clock.now()
        try await clock.sleep(seconds: 0.01)
        #expect(clock.now() > before)
    }
}
