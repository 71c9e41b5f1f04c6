import Foundation

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
///   rejects every token cannot cause a refresh loop.
public actor AccessTokenCache {
    /// Refreshes allowed within ``refreshWindow``.
    public static let maximumRefreshes = 5
    /// The window, in seconds, for ``maximumRefreshes``.
    public static let refreshWindow: TimeInterval = 30

    private let call: ProviderCall
    private let clock: any TokenClock

    private var cached: (token: AccessToken, refreshAt: TimeInterval)?
    private var inflight: (task: Task<AccessToken, Error>, generation: Int)?
    private var lastGeneration = 0
    private var recentRefreshes: [TimeInterval] = []

    /// - Parameters:
    ///   - provider: the app's token provider.
    ///   - clock: the time source; the default counts time asleep.
    ///   - fetchTimeout: how long to wait for the provider before giving up, in seconds.
    ///   - log: receives debug messages (never a token).
    public init(
        provider: AccessTokenProvider,
        clock: any TokenClock = SystemTokenClock(),
        fetchTimeout: TimeInterval = 30,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.init(provider: SharedTokenProvider(provider), clock: clock, fetchTimeout: fetchTimeout, log: log)
    }

    /// The same, for a provider already wrapped to cross concurrency domains.
    public init(
        provider: SharedTokenProvider,
        clock: any TokenClock = SystemTokenClock(),
        fetchTimeout: TimeInterval = 30,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.clock = clock
        call = ProviderCall(provider: provider, clock: clock, timeout: fetchTimeout, log: log)
    }

    /// A token for a new request: the cached one while it is fresh, otherwise a fetched one.
    public func token() async throws -> AccessToken {
        if let cached, clock.now() < cached.refreshAt {
            return cached.token
        }
        return try await sharedFetch()
    }

    /// A token to replay a request that got a 401 with `rejected`.
    /// - Throws: ``AuthError/refreshLimitReached`` when refreshes come too fast.
    public func token(replacing rejected: AccessToken) async throws -> AccessToken {
        if let cached, cached.token.generation > rejected.generation {
            return cached.token
        }
        if let inflight, inflight.generation > rejected.generation {
            return try await inflight.task.value
        }
        if cached?.token.generation == rejected.generation {
            cached = nil
        }
        let now = clock.now()
        recentRefreshes.removeAll { now - $0 >= Self.refreshWindow }
        guard recentRefreshes.count < Self.maximumRefreshes else {
            throw AuthError.refreshLimitReached
        }
        recentRefreshes.append(now)
        return try await sharedFetch()
    }

    /// Drops every cached token, so the next request fetches a fresh one.
    public func invalidate() {
        cached = nil
    }

    private func sharedFetch() async throws -> AccessToken {
        if let inflight {
            return try await inflight.task.value
        }
        lastGeneration += 1
        let generation = lastGeneration
        let call = self.call
        let task = Task { () async throws -> AccessToken in
            do {
                let info = try await call.fetch()
                return self.accept(info, generation: generation)
            } catch {
                self.abandon(generation: generation)
                throw error
            }
        }
        inflight = (task, generation)
        return try await task.value
    }

    private func accept(_ info: AccessTokenInfo, generation: Int) -> AccessToken {
        let token = AccessToken(value: info.token, generation: generation)
        if inflight?.generation == generation {
            inflight = nil
        }
        if info.expiresInSeconds > 0 {
            let lifetime = TimeInterval(info.expiresInSeconds)
            let margin = min(30, lifetime / 2)
            cached = (token, clock.now() + lifetime - margin)
        }
        return token
    }

    private func abandon(generation: Int) {
        if inflight?.generation == generation {
            inflight = nil
        }
    }
}
