import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

/// A provider whose fetch takes `seconds` on an injected clock, counting calls.
final class SlowProvider: NSObject, AccessTokenProvider, @unchecked Sendable {
    // Sendable: `count` is guarded by `lock`; the rest is immutable.
    private let lock = NSLock()
    private var count = 0
    let clock: ManualTokenClock
    let seconds: TimeInterval

    init(clock: ManualTokenClock, seconds: TimeInterval) {
        self.clock = clock
        self.seconds = seconds
    }

    var calls: Int { lock.withLock { count } }

    func fetchToken(completion: @escaping (AccessTokenInfo?, Error?) -> Void) {
        lock.withLock { count += 1 }
        let completion = SendableCompletion(completion)
        let (clock, seconds) = (self.clock, self.seconds)
        Task {
            try? await clock.sleep(seconds: seconds)
            completion.call(AccessTokenInfo(token: "slow-access-token", expiresInSeconds: 3600), nil)
        }
    }
}

/// A provider's completion carried into a task (the provider protocol's closure is not
/// `@Sendable`; this one is called once).
struct SendableCompletion: @unchecked Sendable {
    let call: (AccessTokenInfo?, Error?) -> Void
    init(_ call: @escaping (AccessTokenInfo?, Error?) -> Void) { self.call = call }
}

/// A policy that retries every retryable failure, as often as asked, with a fixed delay.
final class EndlessRetryPolicy: NSObject, RetryPolicy, @unchecked Sendable {
    // Sendable: all stored properties are immutable.
    let delayMs: Int
    init(delayMs: Int = 0) { self.delayMs = delayMs }
    func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool { true }
    func retryDelayMs(attempt: Int) -> Int { delayMs }
}

/// Lets requests through one at a time, when the test says so.
final class RequestGate: @unchecked Sendable {
    // Sendable: `waiting` and `opened` are guarded by `lock`; `arrived` guards itself.
    private let lock = NSLock()
    private let arrived = Watched(0)
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var opened = false

    var requestCount: Int { arrived.value }

    /// True once `count` requests have arrived, false if `seconds` of real time pass first.
    func waitForRequests(_ count: Int, atMost seconds: TimeInterval) async -> Bool {
        await arrived.wait(atMost: seconds) { $0 >= count }
    }

    /// Counts the request, then waits until ``open()`` unless `passes` lets it through.
    func pass(_ passes: (Int) -> Bool) async {
        let number = arrived.change { count -> Int in
            count += 1
            return count
        }
        guard !passes(number) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openNow: Bool = lock.withLock {
                if opened { return true }
                waiting.append(continuation)
                return false
            }
            if openNow { continuation.resume() }
        }
    }

    func open() {
        let released: [CheckedContinuation<Void, Never>] = lock.withLock {
            opened = true
            defer { waiting = [] }
            return waiting
        }
        released.forEach { $0.resume() }
    }
}

/// The task's value, or nil when it has none within `seconds` of real time: a watchdog,
/// so that a regression fails the test instead of stalling the suite.
func value<Value: Sendable>(of task: Task<Value, Never>, within seconds: TimeInterval) async -> Value? {
    let claimed = ClaimOnce()
    return await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
        // A cancelled watchdog returns without claiming: otherwise, woken by the cancel on
        // another thread, it could claim before the value does and report nil for a task
        // that finished in time.
        let watchdog = Task {
            do {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            } catch {
                return
            }
            if claimed.claim() { continuation.resume(returning: nil) }
        }
        Task {
            let value = await task.value
            if claimed.claim() { continuation.resume(returning: value) }
            watchdog.cancel()
        }
    }
}

/// True for the first caller only.
final class ClaimOnce: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var claimed = false
    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}

@Suite(.skippedUnderThreadSanitizer)
struct CallLimitsTests {
    @Test func aCallCancelledDuringATenSecondProviderFetchEndsAtOnceWhileASecondCallGetsTheToken() async throws {
        let clock = ManualTokenClock()
        let provider = SlowProvider(clock: clock, seconds: 10)
        let server = InTestServer()
        let client = makeClient(server: server, provider: provider) { $0.tokenClock = clock }
        let cancelled = Task { await client.tokenize("first") }
        let patient = Task { await client.tokenize("second") }
        // Two call limits, watched by the client's one timer, the provider timeout and the
        // provider's own 10 s fetch.
        try #require(await waitUntil(atMost: 600) { client.callDeadlines.pendingCount == 2 && clock.sleeperCount == 3 })
        #expect(provider.calls == 1)

        let started = Date()
        cancelled.cancel()
        let result = try #require(await value(of: cancelled, within: 10))
        // The fetch has 10 s of the injected clock to go, and the clock does not move.
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(!result.isSuccess && result.errorKind == .cancelled)
        #expect(result.errorMessage == "the request was cancelled")

        clock.advance(by: 10)
        let second = await patient.value
        #expect(second.isSuccess && second.token == InTestServer.token(for: "second"))
        #expect(provider.calls == 1)
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer slow-access-token"])
    }

    @Test func aCallTimeoutOfOneSecondOverAServerAlwaysAnswering503EndsWithTheTimeoutKind() async throws {
        let tokenClock = ManualTokenClock()
        let retryClock = ImmediateRetryClock()
        let gate = RequestGate()
        let server = InTestServer()
        let log = CapturedLog()
        let client = makeClient(server: server, retryPolicy: EndlessRetryPolicy(), retryClock: retryClock, log: log) { configuration in
            configuration.tokenClock = tokenClock
            configuration.callTimeout = 1
            configuration.transport = ClosureTransport { _ in
                // The first two answers come at once; the third hangs until the test opens the gate.
                await gate.pass { $0 <= 2 }
                return InTestServer.errorResponse(status: 503, code: "unavailable")
            }
        }
        let call = Task { await client.tokenize("value") }
        try #require(await waitUntil(atMost: 600) { gate.requestCount == 3 })
        tokenClock.advance(by: 1)
        let result = try #require(await value(of: call, within: 10))  // while the third attempt still hangs
        #expect(!result.isSuccess && result.errorKind == .timeout)
        #expect(result.httpStatusCode == nil)
        #expect(result.errorMessage == "the call did not finish within its time limit of 1 s")

        // The hanging attempt answers 503 after the deadline: the call has no time left,
        // so the policy's retry is neither waited for nor sent.
        gate.open()
        #expect(
            await waitUntil(atMost: 600) { log.all.contains { $0.hasSuffix("not retrying: the wait of 0 ms would outlast the call's time limit") } })
        #expect(retryClock.sleeps.count == 2)
        #expect(gate.requestCount == 3)
    }

    @Test func infinityAndIntMaxSettingsRunWithoutATrap() async throws {
        final class IntMaxPolicy: NSObject, RetryPolicy, @unchecked Sendable {
            func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool { attempt == 0 }
            func retryDelayMs(attempt: Int) -> Int { Int.max }
        }
        let server = InTestServer()
        server.script(status: 503)
        let retryClock = ImmediateRetryClock()
        let provider = ScriptedProvider(expiresIn: Int.max)
        let client = makeClient(server: server, provider: provider, retryPolicy: IntMaxPolicy(), retryClock: retryClock) { configuration in
            configuration.callTimeout = .infinity
            configuration.requestTimeout = .infinity
            configuration.tokenProviderTimeout = .infinity
        }
        let result = await client.tokenize("value")
        #expect(result.isSuccess)
        #expect(retryClock.sleeps == [Int.max])
        #expect(server.requests.map(\.timeout) == [.infinity, .infinity])
        #expect(await client.tokenize("again").isSuccess)
        #expect(provider.calls == 1)  // a token that lives Int.max seconds stays cached

        // The real retry clock asked to wait Int.max ms within a 1 s limit: the wait is not
        // begun, and the call ends at once with the server's answer.
        let tokenClock = ManualTokenClock()
        server.script(status: 503)
        var configuration = ZeroPiiConfiguration()
        configuration.transport = server.transport
        configuration.tokenClock = tokenClock
        configuration.callTimeout = 1
        let realClockClient = TokenizationClient(
            apiURL: "https://tokens.example.test/", tokenProvider: SharedTokenProvider(ScriptedProvider()), retryPolicy: IntMaxPolicy(),
            configuration: configuration, logger: SDKLogger(level: .off, handler: nil)
        )
        let sentBefore = server.requests.count
        let ended = try #require(await value(of: Task { await realClockClient.tokenize("value") }, within: 10))
        #expect(ended.errorKind == .server && ended.httpStatusCode?.intValue == 503)
        #expect(server.requests.count == sentBefore + 1)
    }

    @Test func aRetryWhoseWaitWouldOutlastTheCallEndsItAtOnceWithTheServersAnswer() async throws {
        // 429 and 503 with a Retry-After beyond the 10 s the call has: one request, no wait,
        // the server's own answer (not a time-out 10 s later). The call's clock stands still,
        // so however long a loaded test pool keeps the call waiting for a thread, it has
        // exactly 10 s left when the answer comes.
        for (status, kind) in [(429, ZeroPiiErrorKind.rateLimited), (503, .server)] {
            let server = InTestServer()
            server.script(status: status, headers: ["Retry-After": "30"])
            let retryClock = ImmediateRetryClock()
            let log = CapturedLog()
            let client = makeClient(server: server, retryClock: retryClock, log: log) { configuration in
                configuration.tokenClock = ManualTokenClock()
                configuration.callTimeout = 10
            }
            let result = try #require(await value(of: Task { await client.tokenize("value") }, within: 600))
            #expect(result.errorKind == kind && result.httpStatusCode?.intValue == status, "\(status)")
            #expect(server.requests.count == 1, "\(status)")
            #expect(retryClock.sleeps.isEmpty, "\(status)")
            #expect(
                log.all.contains("tokenize: HTTP \(status); not retrying: the wait of 30000 ms would outlast the call's time limit"),
                "\(log.all)")
        }
        // The same wait within a longer limit is waited, and the retry answers.
        let server = InTestServer()
        server.script(status: 429, headers: ["Retry-After": "30"])
        let retryClock = ImmediateRetryClock()
        let client = makeClient(server: server, retryClock: retryClock) { $0.callTimeout = 600 }
        #expect(await client.tokenize("value").isSuccess)
        #expect(retryClock.sleeps == [30_000])
        #expect(server.requests.count == 2)
    }

    @Test func zeroNegativeAndNaNCallTimeoutsEndTheCallAtOnce() async throws {
        for limit in [0, -1, TimeInterval.nan] {
            let server = InTestServer()
            let client = makeClient(server: server) { $0.callTimeout = limit }
            let result = await client.tokenize("value")
            #expect(result.errorKind == .timeout, "\(limit)")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func afterTheRefreshGuardTripsProviderCallsStayBounded() async throws {
        let server = InTestServer(acceptedTokens: ["never-issued"])
        let provider = ScriptedProvider()
        let client = makeClient(server: server, provider: provider, wireProfile: .plaintext)
        var kinds: Set<ZeroPiiErrorKind> = []
        for index in 0..<40 {
            kinds.insert(await client.tokenize("value-\(index)").errorKind)
        }
        #expect(kinds == [.authentication])
        #expect(provider.calls <= 2 * AccessTokenCache.maximumRefreshes + 1)
        #expect(server.requests.count <= 2 * (AccessTokenCache.maximumRefreshes + 1))
    }

    @Test func aTransportThatReportsCancelledEndsTheCallWithoutARetry() async throws {
        final class AskedPolicy: NSObject, RetryPolicy, @unchecked Sendable {
            private let lock = NSLock()
            private var count = 0
            var asked: Int { lock.withLock { count } }
            func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool {
                lock.withLock { count += 1 }
                return true
            }
            func retryDelayMs(attempt: Int) -> Int { 0 }
        }
        let policy = AskedPolicy()
        let sent = RequestGate()
        let client = makeClient(server: InTestServer(), retryPolicy: policy) { configuration in
            configuration.transport = ClosureTransport { _ in
                await sent.pass { _ in true }
                throw TransportError.cancelled
            }
        }
        let result = await client.tokenize("value")
        #expect(result.errorKind == .cancelled && result.errorMessage == "the request was cancelled")
        #expect(sent.requestCount == 1)
        #expect(policy.asked == 0)
    }

    @Test func aRetryAfterDateIsReadOnTheServersClock() async throws {
        let server = InTestServer()
        server.serverClockOffset = 3600  // the server is an hour ahead of this device
        let retryClock = ImmediateRetryClock()  // the device's real clock, as the server's
        let client = makeClient(server: server, retryClock: retryClock)
        #expect(await client.tokenize("learn the offset").isSuccess)  // stale_request, corrected, replayed

        // "Retry in 10 s", written on the server's clock.
        server.script(status: 429, headers: ["Retry-After": InTestServer.httpDate(Date().addingTimeInterval(3600 + 10))])
        #expect(await client.tokenize("value").isSuccess)
        let wait = try #require(retryClock.sleeps.first)
        // About 10 s (less the time the test took since the header was written, and the
        // fraction of a second the header's date leaves out); the device's clock would make
        // it 60 s, the cap.
        #expect((1_000...11_000).contains(wait), "\(wait) ms")
    }
}
