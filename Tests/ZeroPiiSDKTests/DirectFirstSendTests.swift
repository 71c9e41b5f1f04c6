import Foundation
import Testing
import ZeroPiiLocking
import ZeroPiiTestHelpers
import ZeroPiiTestSupport
import ZeroPiiTransport

@testable import ZeroPiiSDK

/// The first request of a call sent on the caller's own task, with the call's time limit
/// as its timeout, when the transport ends its sends by itself (as the libcurl transport
/// does), a fresh token is cached and a slot is free; everything after that first answer
/// goes through the bounded pipeline with the time that is left. Against the in-test
/// server behind ``SelfBoundedTestTransport``; the same path against the mock server
/// over libcurl is in the integration tests.
struct DirectFirstSendTests {
    /// A client over `transport` whose token is cached by a first call; the transport
    /// forgets that call. Under a loaded test pool a short limit may end the first call
    /// before the provider answers (the fetch goes on and caches the token), so it is
    /// called until one succeeds.
    private func warmClient(
        _ transport: SelfBoundedTestTransport, callTimeout: TimeInterval = 900, requestTimeout: TimeInterval = 30,
        provider: AccessTokenProvider = ScriptedProvider(), clock: ImmediateRetryClock = ImmediateRetryClock(),
        configure: (inout ZeroPiiConfiguration) -> Void = { _ in }
    ) async -> TokenizationClient {
        let client = makeClient(server: transport.server, provider: provider, retryClock: clock) { configuration in
            configuration.transport = transport
            configuration.callTimeout = callTimeout
            configuration.requestTimeout = requestTimeout
            configure(&configuration)
        }
        var warmed = false
        for _ in 0..<50 where !warmed {
            warmed = await client.tokenize("warm-up").isSuccess
        }
        #expect(warmed)
        transport.forget()
        return client
    }

    @Test func aCallWithoutACachedTokenTakesTheBoundedPipeline() async throws {
        let transport = SelfBoundedTestTransport(server: InTestServer())
        let client = makeClient(server: transport.server) { configuration in
            configuration.transport = transport
            configuration.callTimeout = 600
            configuration.requestTimeout = 900
        }
        #expect(await client.tokenize("first").isSuccess)  // waited for the provider
        #expect(await client.tokenize("second").isSuccess)  // found the token cached
        #expect(transport.timeouts == [900, 600])
    }

    @Test func aCallWithACachedTokenSendsItsRequestWithTheCallsLimitAndNoDeadline() async throws {
        let transport = SelfBoundedTestTransport(server: InTestServer())
        let client = await warmClient(transport, callTimeout: 5, requestTimeout: 30)
        let timersBefore = client.callDeadlines.timerStartCount

        let result = await client.tokenize("alice@example.com")
        #expect(result.isSuccess && result.token == InTestServer.token(for: "alice@example.com"))
        // The request carried the call's 5 s (shorter than the attempt's 30 s), and no
        // deadline was registered for it: nothing watched the call but the transport.
        #expect(transport.timeouts == [5])
        #expect(client.callDeadlines.timerStartCount == timersBefore && client.callDeadlines.pendingCount == 0)
        #expect(client.requestSlots.snapshot == (0, 0))

        // An attempt limit shorter than the call's is the request's timeout.
        let shortAttempts = SelfBoundedTestTransport(server: InTestServer())
        let other = await warmClient(shortAttempts, callTimeout: 5, requestTimeout: 2)
        #expect(await other.batchTokenize(["a@example.com", "b@example.com"]).isSuccess)
        #expect(shortAttempts.timeouts == [2])
    }

    @Test func aRetryableAnswerGoesOnThroughThePolicyWithoutResendingTheFirstRequest() async throws {
        let transport = SelfBoundedTestTransport(server: InTestServer())
        let clock = ImmediateRetryClock()
        let client = await warmClient(transport, callTimeout: 600, requestTimeout: 900, clock: clock)
        transport.server.script(status: 503)
        let result = await client.tokenize("value")
        #expect(result.isSuccess && result.token == InTestServer.token(for: "value"))
        // The first request went directly; the retry, after the policy's delay, through
        // the bounded pipeline with the attempt's own limit.
        #expect(transport.timeouts == [600, 900])
        #expect(clock.sleeps == [2000])

        // A retryable status on every attempt ends as the policy says, with that status.
        transport.forget()
        let sleepsBefore = clock.sleeps.count
        for _ in 0..<2 { transport.server.script(status: 429) }
        let failed = await client.tokenize("value")
        #expect(!failed.isSuccess && failed.httpStatusCode?.intValue == 429)
        // The default policy retries once.
        #expect(transport.timeouts == [600, 900] && clock.sleeps.count - sleepsBefore == 1)
    }

    @Test func aFinalErrorStatusEndsTheCallAfterTheDirectRequest() async throws {
        let transport = SelfBoundedTestTransport(server: InTestServer())
        let clock = ImmediateRetryClock()
        let client = await warmClient(transport, clock: clock)
        transport.server.script(status: 404)
        let result = await client.tokenize("value")
        #expect(!result.isSuccess && result.httpStatusCode?.intValue == 404)
        #expect(transport.timeouts.count == 1 && clock.sleeps.isEmpty)
    }

    @Test func a401OnTheDirectRequestRefreshesTheTokenAndReplaysOnce() async throws {
        let server = InTestServer(acceptedTokens: ["secret-access-token-1"])
        let transport = SelfBoundedTestTransport(server: server)
        let provider = ScriptedProvider()
        let clock = ImmediateRetryClock()
        let client = await warmClient(transport, provider: provider, clock: clock)
        server.accept(token: "secret-access-token-2")
        server.revoke(token: "secret-access-token-1")
        let result = await client.tokenize("value")
        #expect(result.isSuccess)
        #expect(provider.calls == 2)
        #expect(transport.authorizations == ["Bearer secret-access-token-1", "Bearer secret-access-token-2"])
        #expect(clock.sleeps.isEmpty)  // a replay, not a retry
    }

    @Test func aStaleRequestAnswerCorrectsTheClockAndReplays() async throws {
        let server = InTestServer()
        let transport = SelfBoundedTestTransport(server: server)
        let client = await warmClient(transport)
        server.serverClockOffset = 3600
        #expect(await client.tokenize("value").isSuccess)
        #expect(transport.timeouts.count == 2)
    }

    @Test func theCallsLimitEndsAHeldDirectRequestAsATimeout() async throws {
        let transport = SelfBoundedTestTransport(server: InTestServer())
        let log = CapturedLog()
        let client = await warmClient(transport, callTimeout: 0.2) { $0.logHandler = log.handler }
        transport.holdNext(1)
        let result = await client.tokenize("value")
        #expect(result.errorKind == .timeout)
        #expect(result.errorMessage == "the call did not finish within its time limit of 0.2 s")
        #expect(transport.timeouts == [0.2])
        #expect(client.requestSlots.snapshot == (0, 0))
    }

    @Test func anAttemptLimitShorterThanTheCallsIsRetried() async throws {
        let transport = SelfBoundedTestTransport(server: InTestServer())
        let clock = ImmediateRetryClock()
        let client = await warmClient(transport, callTimeout: 900, requestTimeout: 0.05, clock: clock)
        transport.holdNext(1)
        let result = await client.tokenize("value")
        #expect(result.isSuccess)
        #expect(transport.timeouts == [0.05, 0.05] && clock.sleeps == [2000])
    }

    @Test func theRestOfTheCallHasOnlyTheTimeThatIsLeft() async throws {
        let transport = SelfBoundedTestTransport(server: InTestServer())
        let client = await warmClient(transport, callTimeout: 600)
        // The first answer, a 503, comes after 0.3 s; the retry is held.
        transport.server.script(status: 503)
        transport.delayNext(0.3)
        transport.holdNext(2)
        let call = Task { await client.tokenize("value") }
        try await transport.waitForHeldRequests(1)
        let deadlines = client.callDeadlines.state.withLock { $0.pending.values.map(\.time) }
        let left = try #require(deadlines.first) - SystemTokenClock().now()
        #expect(deadlines.count == 1)
        #expect(left > 590 && left <= 599.7, "\(left) s left")
        call.cancel()
        #expect(await call.value.errorKind == .cancelled)
    }

    @Test func cancellingTheCallerEndsTheDirectRequestAtOnce() async throws {
        let transport = SelfBoundedTestTransport(server: InTestServer())
        let client = await warmClient(transport, callTimeout: 600, requestTimeout: 600)
        transport.holdNext(1)
        let call = Task { await client.tokenize("value") }
        try await transport.waitForHeldRequests(1)
        call.cancel()
        let result = await call.value
        #expect(result.errorKind == .cancelled)
        #expect(transport.timeouts == [600] && client.requestSlots.snapshot == (0, 0))
    }

    @Test func aCallThatFindsEverySlotTakenWaitsInLineThroughTheBoundedPipeline() async throws {
        let transport = SelfBoundedTestTransport(server: InTestServer())
        let client = await warmClient(transport, callTimeout: 600, requestTimeout: 900) { $0.maximumConcurrentRequests = 1 }
        transport.holdNext(1)
        let holder = Task { await client.tokenize("holder") }
        try await transport.waitForHeldRequests(1)
        let waiter = Task { await client.tokenize("waiter") }
        while client.requestSlots.snapshot.waiting == 0 { await Task.yield() }
        // The waiter is in line, watched by a deadline of its own.
        #expect(client.callDeadlines.pendingCount == 1)
        holder.cancel()
        #expect(await holder.value.errorKind == .cancelled)
        #expect(await waiter.value.isSuccess)
        #expect(transport.timeouts == [600, 900])
    }

    /// A call limit past the transports' longest timeout would be no limit at all for
    /// libcurl, so such a call keeps its watchdog.
    @Test func aCallLimitBeyondTheLongestTimeoutKeepsTheBoundedPipeline() async throws {
        let transport = SelfBoundedTestTransport(server: InTestServer())
        let client = await warmClient(transport, callTimeout: URLSessionTransport.longestTimeout * 2, requestTimeout: .infinity)
        #expect(await client.tokenize("value").isSuccess)
        #expect(transport.timeouts == [.infinity])
    }

    @Test func aClockATestMovesKeepsEveryCallOnTheBoundedPipeline() async throws {
        let transport = SelfBoundedTestTransport(server: InTestServer())
        let client = makeClient(server: transport.server) { configuration in
            configuration.transport = transport
            configuration.callTimeout = 5
            configuration.tokenClock = ManualTokenClock()
        }
        for _ in 0..<3 { #expect(await client.tokenize("value").isSuccess) }
        #expect(transport.timeouts == [30, 30, 30])
    }

    @Test func anAppsTransportIsNeverAwaitedDirectly() async throws {
        let server = InTestServer()
        let seen = Locked<[TimeInterval]>([])
        let client = makeClient(server: server) { configuration in
            configuration.transport = ClosureTransport { request in
                seen.withLock { $0.append(request.timeout) }
                return server.handle(request)
            }
            configuration.callTimeout = 600
            configuration.requestTimeout = 900
        }
        for _ in 0..<3 { #expect(await client.tokenize("value").isSuccess) }
        #expect(seen.withLock { $0 } == [900, 900, 900])
    }
}
