import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// Hands out access tokens from an app's ``AccessTokenProvider``, fetching as rarely as
/// possible.
///
/// - A token is reused until shortly before it expires: a margin of
///   min(30 s, half its lifetime). Expiry runs on a clock that counts time asleep.
///   A token with `expiresInSeconds <= 0` serves the requests that waited for it and
///   is not cached.
/// - Single flight: however many requests need a token at once, the provider is
///   called once and all of them get its answer.
/// - After a 401, only the token that failed is dropped. A request that failed with a
///   token older than the current one replays with the current one, without a fetch;
///   all requests that failed with the same token share one refresh. At most
///   ``maximumRefreshes`` refreshes within ``refreshWindow`` seconds, so a server that
///   rejects every token cannot cause a refresh loop; once that guard trips, requests
///   without a fresh cached token fail too instead of calling the provider, until the
///   window has room again.
/// - A token handed out is never past its refresh margin (a use-once token, with
///   `expiresInSeconds <= 0`, only to the requests that waited for its fetch).
/// - Cancellation is immediate: a cancelled request stops waiting for a fetch at once,
///   and the fetch goes on for the requests still waiting.
/// - A request that finds a fresh token takes it without entering the actor (the cached
///   token is kept under a lock), so the common case costs no hop onto the actor.
package actor AccessTokenCache {
    /// Refreshes allowed within ``refreshWindow``.
    package static let maximumRefreshes = 5
    /// The window, in seconds, for ``maximumRefreshes``.
    package static let refreshWindow: TimeInterval = 30

    private let call: ProviderCall
    private let clock: any TokenClock

    private let cachedToken = CachedToken()
    private var inflight: TokenFetch?
    private var lastGeneration = 0
    private var recentRefreshes: [TimeInterval] = []

    /// - Parameters:
    ///   - provider: the app's token provider.
    ///   - clock: the time source; the default counts time asleep.
    ///   - fetchTimeout: how long to wait for the provider before giving up, in seconds;
    ///     `.infinity` waits as long as the provider needs, and zero, negative or NaN
    ///     gives up at once.
    ///   - log: receives debug messages (never a token).
    package init(
        provider: AccessTokenProvider,
        clock: any TokenClock = SystemTokenClock(),
        fetchTimeout: TimeInterval = 30,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.init(provider: SharedTokenProvider(provider), clock: clock, fetchTimeout: fetchTimeout, log: log)
    }

    /// The same, for a provider already wrapped to cross concurrency domains.
    ///
    /// - Parameters:
    ///   - provider: the app's token provider.
    ///   - clock: the time source; the default counts time asleep.
    ///   - fetchTimeout: how long to wait for the provider, in seconds, as above.
    ///   - log: receives debug messages (never a token).
    package init(
        provider: SharedTokenProvider,
        clock: any TokenClock = SystemTokenClock(),
        fetchTimeout: TimeInterval = 30,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.clock = clock
        call = ProviderCall(provider: provider, clock: clock, timeout: fetchTimeout, log: log)
    }

    /// A token for a new request: the cached one while it is fresh, otherwise a fetched one.
    ///
    /// Cancelling the calling task ends the wait at once with `CancellationError`; a fetch
    /// that other requests share goes on for them.
    /// - Throws: ``AuthError/refreshLimitReached`` while the refresh guard has tripped and
    ///   no fresh token is cached: the provider is not called again until the window has
    ///   room.
    package nonisolated func token() async throws -> AccessToken {
        if let fresh = cachedToken.fresh(at: clock.now()) {
            return fresh
        }
        return try await freshOrFetchedToken()
    }

    /// The cached token while it is fresh, without waiting; nil when a request would
    /// have to wait for ``token()``.
    package nonisolated func freshCachedToken() -> AccessToken? {
        cachedToken.fresh(at: clock.now())
    }

    /// ``token()`` on the actor: the cached token may have been refreshed since the caller
    /// looked.
    private func freshOrFetchedToken() async throws -> AccessToken {
        if let fresh = cachedToken.fresh(at: clock.now()) {
            return fresh
        }
        if inflight == nil, refreshGuardHasTripped() {
            throw AuthError.refreshLimitReached
        }
        return try await sharedFetch().value()
    }

    /// A token to replay a request that got a 401 with `rejected`: a newer fresh token
    /// when there is one, otherwise a refreshed one.
    /// - Throws: ``AuthError/refreshLimitReached`` when refreshes come too fast.
    package func token(replacing rejected: AccessToken) async throws -> AccessToken {
        let cached = cachedToken.current
        if let cached, cached.token.generation > rejected.generation {
            // A newer token is handed out only while it is fresh; one past its margin
            // is replaced the way a new request would replace it.
            return try await freshOrFetchedToken()
        }
        if let inflight, inflight.generation > rejected.generation {
            return try await inflight.value()
        }
        if cached?.token.generation == rejected.generation {
            cachedToken.current = nil
        }
        guard !refreshGuardHasTripped() else {
            throw AuthError.refreshLimitReached
        }
        recentRefreshes.append(clock.now())
        return try await sharedFetch().value()
    }

    /// Drops every cached token, so the next request fetches a fresh one.
    package func invalidate() {
        cachedToken.current = nil
    }

    /// Whether ``maximumRefreshes`` refreshes happened within the last ``refreshWindow``
    /// seconds; forgets older ones.
    private func refreshGuardHasTripped() -> Bool {
        let now = clock.now()
        recentRefreshes.removeAll { now - $0 >= Self.refreshWindow }
        return recentRefreshes.count >= Self.maximumRefreshes
    }

    /// The fetch in flight, or a new one. Synchronous, so no other request can slip in
    /// between the check and the start.
    private func sharedFetch() -> TokenFetch {
        if let inflight {
            return inflight
        }
        lastGeneration += 1
        let fetch = TokenFetch(generation: lastGeneration)
        inflight = fetch
        let call = self.call
        Task {
            let result: Result<AccessToken, Error>
            do {
                let info = try await call.fetch()
                result = .success(self.accept(info, generation: fetch.generation))
            } catch {
                self.abandon(generation: fetch.generation)
                result = .failure(error)
            }
            fetch.complete(with: result)
        }
        return fetch
    }

    private func accept(_ info: AccessTokenInfo, generation: Int) -> AccessToken {
        let token = AccessToken(value: info.token, generation: generation)
        if inflight?.generation == generation {
            inflight = nil
        }
        if info.expiresInSeconds > 0 {
            let lifetime = TimeInterval(info.expiresInSeconds)
            let margin = min(30, lifetime / 2)
            cachedToken.current = (token, clock.now() + lifetime - margin)
        }
        return token
    }

    private func abandon(generation: Int) {
        if inflight?.generation == generation {
            inflight = nil
        }
    }
}

/// The cached token and when to refresh it, readable from any thread. Only the actor
/// writes it; a reader that finds it fresh needs nothing else of the actor's state.
private final class CachedToken: Sendable {
    private let value = Locked<(token: AccessToken, refreshAt: TimeInterval)?>(nil)

    var current: (token: AccessToken, refreshAt: TimeInterval)? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }

    /// The token, if one is cached and `now` is before its refresh time.
    func fresh(at now: TimeInterval) -> AccessToken? {
        value.withLock { value in
            guard let value, now < value.refreshAt else { return nil }
            return value.token
        }
    }
}
