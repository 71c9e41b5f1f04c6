import Foundation
import Testing
import ZeroPiiAuth
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

/// Cancellation, the refresh guard, expiry of handed-out tokens and unbounded timeouts.
struct AccessTokenCacheEdgeTests {
    @Test func aCancelledWaiterStopsAtOnceWhileTheSharedFetchGoesOnForTheOthers() async throws {
        let provider = ScriptedProvider(.hold)
        let cache = AccessTokenCache(provider: provider, clock: ManualClock())
        let cancelledFinished = Flag()
        let cancelled = Task {
            defer { cancelledFinished.raise() }
            return try await cache.token()
        }
        let patient = Task { try await cache.token() }
        try await waitUntil { provider.heldCount == 1 }
        cancelled.cancel()
        // The provider has not answered, and will not until the cancelled waiter is done.
        #expect(await waitUntil(atMost: defaultWaitLimit) { cancelledFinished.isSet })
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        provider.release(token: "shared", expiresIn: 3600)
        #expect(try await patient.value.value == "shared")
        #expect(try await cache.token().value == "shared")  // cached for later requests
        #expect(provider.calls == 1)
    }

    @Test func aWaiterCancelledBeforeItAsksStopsToo() async throws {
        let provider = ScriptedProvider(.hold)
        let cache = AccessTokenCache(provider: provider, clock: ManualClock())
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await cache.token()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        try await waitUntil { provider.heldCount == 1 }
        provider.release(token: "later", expiresIn: 3600)
        #expect(try await cache.token().value == "later")
    }

    @Test func afterTheGuardTripsProviderCallsStayBounded() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(.answer(expiresIn: 3600))
        let cache = AccessTokenCache(provider: provider, clock: clock)
        // A server that rejects every token: each request takes a token, gets a 401 and
        // asks for a replacement, fifty times within one window.
        var refused = 0
        for _ in 0..<50 {
            do {
                let token = try await cache.token()
                _ = try await cache.token(replacing: token)
            } catch let error as AuthError {
                #expect(error == .refreshLimitReached)
                refused += 1
            }
        }
        #expect(provider.calls <= 2 * AccessTokenCache.maximumRefreshes + 1)
        #expect(refused >= 50 - AccessTokenCache.maximumRefreshes)
        // Once the window has room, tokens flow again.
        clock.advance(by: AccessTokenCache.refreshWindow)
        let afterWindow = try await cache.token()
        #expect(afterWindow.value.hasPrefix("secret-token-"))
    }

    @Test func aNewerTokenPastItsMarginIsNotHandedOutForAReplay() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(.answer(expiresIn: 100))
        let cache = AccessTokenCache(provider: provider, clock: clock)
        let old = try await cache.token()
        let newer = try await cache.token(replacing: old)
        #expect(try await cache.token(replacing: old) == newer)  // fresh: reused
        clock.advance(by: 80)  // past the 30 s margin of a 100 s token
        let replay = try await cache.token(replacing: old)
        #expect(replay.generation > newer.generation)
        #expect(provider.calls == 3)
    }

    @Test func anInfiniteFetchTimeoutWaitsForTheProvider() async throws {
        let provider = ScriptedProvider(.hold)
        let cache = AccessTokenCache(provider: provider, clock: SystemTokenClock(), fetchTimeout: .infinity)
        let request = Task { try await cache.token() }
        try await waitUntil { provider.heldCount == 1 }
        provider.release(token: "eventually", expiresIn: 60)
        #expect(try await request.value.value == "eventually")
    }

    @Test func theSystemClockSleepsWithoutTrappingAtAnyDuration() async throws {
        let clock = SystemTokenClock()
        try await clock.sleep(seconds: .nan)
        try await clock.sleep(seconds: -.infinity)
        try await clock.sleep(seconds: -5)
        for seconds in [TimeInterval.infinity, 1e300, TimeInterval(Int.max)] {
            let sleeper = Task { try await clock.sleep(seconds: seconds) }
            sleeper.cancel()
            await #expect(throws: CancellationError.self) { try await sleeper.value }
        }
    }

    @Test func theProvidersErrorIsLoggedByDomainAndCodeOnly() async throws {
        let log = LogRecorder()
        let failure = NSError(domain: "com.example.auth", code: 42, userInfo: [NSLocalizedDescriptionKey: "user alice has no session"])
        let cache = AccessTokenCache(provider: ScriptedProvider(.failWith(failure)), clock: ManualClock(), log: log.sink)
        await #expect(throws: AuthError.providerFailed) { try await cache.token() }
        #expect(log.all == ["the token provider reported an error (domain com.example.auth, code 42)"])
    }

    @Test func authErrorsAreLocalized() {
        let error: Error = AuthError.providerTimedOut
        #expect(error.localizedDescription == AuthError.providerTimedOut.description)
    }
}
