import Foundation
import Testing
import ZeroPiiAuth
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

/// How long, in real time, a test waits for something the code under test does by
/// itself (a timer's sleep, an expiry, a call's end) before it fails. Every wait is told
/// of the change it waits for, none polls, so the bound costs nothing when the code
/// works: it only turns a bug into a failure instead of a hang, and it is long enough
/// for a run under ThreadSanitizer whose two pool threads other suites hold for minutes.
private let patience: TimeInterval = 300

/// Counts how often each deadline expired.
private final class ExpiryTally: Sendable {
    private let counts = Watched<[String: Int]>([:])

    func record(_ name: String) { counts.change { $0[name, default: 0] += 1 } }
    var all: [String: Int] { counts.value }

    /// True once the counts are `expected`, false after ``patience``.
    func waitUntil(_ expected: [String: Int]) async -> Bool {
        await counts.wait(atMost: patience) { $0 == expected }
    }
}

/// One timer for all of a client's call limits (``CallDeadlines``), and ``BoundedCall``
/// on top of it: calls that end in time leave no deadline and start or cancel no task.
///
/// The tests wait on notifications only (``ManualTokenClock``'s sleepers, the tally,
/// the request gate, tasks' values), never by yielding in a loop: with hundreds of calls
/// in flight a spinning test holds one of the cooperative pool's threads, which starved
/// other suites under ThreadSanitizer.
struct CallDeadlinesTests {
    /// Thousands of deadlines microseconds apart whose time has all passed when the
    /// timer wakes end in one pass: one sleep, not one per deadline (an outside test
    /// found a burst of 4,000 expiring calls making a new call's limit fire 1.9 s late).
    @Test func aBurstOfPassedDeadlinesEndsInOnePass() async throws {
        let clock = SleepCountingClock(ManualTokenClock())
        let deadlines = CallDeadlines(clock: clock)
        let expired = Watched<Int>(0)
        for index in 0..<2000 {
            _ = deadlines.register(after: 1 + Double(index) * 1e-6) { expired.change { $0 += 1 } }
        }
        try #require(await clock.manual.waitForSleepers(1, atMost: patience), "the timer sleeps")
        let timer = try #require(deadlines.timerTask)
        clock.manual.advance(by: 2)
        try #require(await expired.wait(atMost: patience) { $0 == 2000 }, "every deadline expired")
        try #require(await value(of: timer, within: patience) != nil, "the timer stopped")
        #expect(deadlines.pendingCount == 0)
        #expect(clock.sleepCount == 1)
    }

    @Test func deadlinesExpireOnceInTheirOrderAndARemovedOneNever() async throws {
        let clock = ManualTokenClock()
        let deadlines = CallDeadlines(clock: clock)
        let tally = ExpiryTally()
        _ = deadlines.register(after: 5) { tally.record("five") }
        let removed = deadlines.register(after: 10) { tally.record("removed") }
        _ = deadlines.register(after: 10) { tally.record("ten") }
        deadlines.remove(removed)
        #expect(deadlines.pendingCount == 2)
        try #require(await clock.waitForSleepers(1, atMost: patience), "the timer sleeps")
        #expect(deadlines.timerStartCount == 1)
        let timer = try #require(deadlines.timerTask)

        clock.advance(by: 4)
        // Nothing is due yet: the timer's sleep still waits.
        #expect(clock.sleeperCount == 1)
        #expect(tally.all.isEmpty)
        clock.advance(by: 1)
        try #require(await tally.waitUntil(["five": 1]), "the first deadline expired")
        try #require(await clock.waitForSleepers(1, atMost: patience), "the timer sleeps until the next one")
        #expect(deadlines.pendingCount == 1)
        clock.advance(by: 5)
        try #require(await tally.waitUntil(["five": 1, "ten": 1]), "the second deadline expired")
        try #require(await value(of: timer, within: patience) != nil, "the timer stopped")
        #expect(!deadlines.timerIsRunning)
        #expect(clock.sleeperCount == 0)
        #expect(deadlines.pendingCount == 0)
        clock.advance(by: 100)
        #expect(tally.all == ["five": 1, "ten": 1])
        #expect(deadlines.timerStartCount == 1)
    }

    @Test func anEarlierDeadlineReplacesTheTimerAndALaterOneDoesNot() async throws {
        let clock = ManualTokenClock()
        let deadlines = CallDeadlines(clock: clock)
        let tally = ExpiryTally()
        _ = deadlines.register(after: 10) { tally.record("ten") }
        let first = try #require(deadlines.timerTask)
        _ = deadlines.register(after: 20) { tally.record("twenty") }
        #expect(deadlines.timerStartCount == 1)
        _ = deadlines.register(after: 2) { tally.record("two") }
        #expect(deadlines.timerStartCount == 2)
        // The first timer was cancelled and ends; then only the new one sleeps.
        try #require(await value(of: first, within: patience) != nil, "the replaced timer ended")
        try #require(await clock.waitForSleepers(1, atMost: patience), "one timer sleeps")
        clock.advance(by: 2)
        try #require(await tally.waitUntil(["two": 1]), "the earliest expired")
        try #require(await clock.waitForSleepers(1, atMost: patience), "the timer sleeps until the next one")
        clock.advance(by: 8)
        try #require(await tally.waitUntil(["two": 1, "ten": 1]), "the next expired")
        try #require(await clock.waitForSleepers(1, atMost: patience), "the timer sleeps until the last one")
        clock.advance(by: 10)
        try #require(await tally.waitUntil(["two": 1, "ten": 1, "twenty": 1]), "the last expired")
        #expect(deadlines.timerStartCount == 2)
    }

    @Test func aClockThatJumpsPastSeveralDeadlinesExpiresThemAllInOneWakeUp() async throws {
        let clock = ManualTokenClock()
        let deadlines = CallDeadlines(clock: clock)
        let tally = ExpiryTally()
        for seconds in 1...50 {
            _ = deadlines.register(after: TimeInterval(seconds)) { tally.record("deadline \(seconds)") }
        }
        try #require(await clock.waitForSleepers(1, atMost: patience), "the timer sleeps")
        let timer = try #require(deadlines.timerTask)
        clock.advance(by: 1000)
        let everyDeadline = Dictionary(uniqueKeysWithValues: (1...50).map { ("deadline \($0)", 1) })
        try #require(await tally.waitUntil(everyDeadline), "every deadline expired, once")
        try #require(await value(of: timer, within: patience) != nil, "the timer stopped")
        #expect(!deadlines.timerIsRunning)
        #expect(clock.sleeperCount == 0)
        #expect(deadlines.pendingCount == 0)
        #expect(deadlines.timerStartCount == 1)
    }

    @Test func aThousandConcurrentCallsThatFinishInTimeShareOneSleepingTimerAndLeaveNoDeadline() async throws {
        let clock = ManualTokenClock()
        let server = InTestServer()
        let client = makeClient(server: server, wireProfile: .plaintext) { configuration in
            configuration.tokenClock = clock
            configuration.callTimeout = 10
        }
        let values = (0..<1000).map { "value-\($0)" }
        let tokens = await withTaskGroup(of: (Int, String?).self) { group in
            for (index, value) in values.enumerated() {
                group.addTask { (index, await client.tokenize(value).token) }
            }
            var tokens = [String?](repeating: nil, count: values.count)
            for await (index, token) in group { tokens[index] = token }
            return tokens
        }
        #expect(tokens == values.map { InTestServer.token(for: $0) })
        #expect(client.callDeadlines.pendingCount == 0)
        #expect(client.callDeadlines.timerStartCount == 1)
        // Never cancelled: the one timer sleeps until the first call's deadline.
        try #require(await clock.waitForSleepers(1, atMost: patience), "the timer sleeps")
        let timer = try #require(client.callDeadlines.timerTask)

        clock.advance(by: 10)
        try #require(await value(of: timer, within: patience) != nil, "the timer found nothing due and stopped")
        #expect(!client.callDeadlines.timerIsRunning)
        #expect(clock.sleeperCount == 0)
        #expect(await client.tokenize("later").token == InTestServer.token(for: "later"))
        #expect(client.callDeadlines.timerStartCount == 2)
    }

    /// A client with a 5 s time limit on `clock` whose transport answers a request at
    /// once when `answeredAtOnce` says so for its body, and otherwise holds it at `gate`,
    /// ignoring cancellation, until the gate opens.
    private static func gatedClient(
        clock: ManualTokenClock, gate: RequestGate, answeredAtOnce: @escaping @Sendable (String) -> Bool
    ) -> TokenizationClient {
        let server = InTestServer()
        return makeClient(server: server, wireProfile: .plaintext) { configuration in
            configuration.tokenClock = clock
            configuration.callTimeout = 5
            // Every call's request in flight at once, held at the gate.
            configuration.maximumConcurrentRequests = .max
            configuration.transport = ClosureTransport { request in
                let atOnce = answeredAtOnce(String(decoding: request.body, as: UTF8.self))
                await gate.pass { _ in atOnce }
                return server.handle(request)
            }
        }
    }

    @Test func hangingCallsUnderContentionEachTimeOutOnceAtTheirLimit() async throws {
        let clock = ManualTokenClock()
        let gate = RequestGate()
        // "hang-" values wait for the gate, ignoring cancellation; the others are answered.
        let client = Self.gatedClient(clock: clock, gate: gate) { !$0.contains("hang-") }
        let values = (0..<200).map { $0.isMultiple(of: 2) ? "answer-\($0)" : "hang-\($0)" }
        let calls = values.map { sent in Task { await client.tokenize(sent) } }
        try #require(await gate.waitForRequests(200, atMost: patience), "every call's request reached the transport")
        for (sent, call) in zip(values, calls) where sent.hasPrefix("answer-") {
            let result = try #require(await value(of: call, within: patience))
            #expect(result.token == InTestServer.token(for: sent))
        }
        // A call registers its deadline before its request leaves, and removes it before
        // its caller gets the result: the hanging hundred are left.
        #expect(client.callDeadlines.pendingCount == 100)
        try #require(await clock.waitForSleepers(1, atMost: patience), "one timer sleeps for them all")
        clock.advance(by: 5)
        for (sent, call) in zip(values, calls) where sent.hasPrefix("hang-") {
            let result = try #require(await value(of: call, within: patience))
            #expect(result.errorKind == .timeout)
            #expect(result.errorMessage == "the call did not finish within its time limit of 5 s")
        }
        #expect(client.callDeadlines.pendingCount == 0)
        gate.open()
    }

    @Test func aCancelledCallRemovesItsDeadlineAndOthersKeepTheirs() async throws {
        let clock = ManualTokenClock()
        let gate = RequestGate()
        let client = Self.gatedClient(clock: clock, gate: gate) { _ in false }
        let cancelled = Task { await client.tokenize("cancelled") }
        let kept = Task { await client.tokenize("kept") }
        try #require(await gate.waitForRequests(2, atMost: patience), "both requests reached the transport")
        #expect(client.callDeadlines.pendingCount == 2)
        cancelled.cancel()
        #expect(try #require(await value(of: cancelled, within: patience)).errorKind == .cancelled)
        #expect(client.callDeadlines.pendingCount == 1)
        gate.open()
        #expect(try #require(await value(of: kept, within: patience)).token == InTestServer.token(for: "kept"))
        #expect(client.callDeadlines.pendingCount == 0)
    }
}

/// A token clock that counts its sleeps, over a ``ManualTokenClock``.
private final class SleepCountingClock: TokenClock, @unchecked Sendable {
    // Sendable: `sleeps` is guarded by `lock`; `manual` is Sendable.
    let manual: ManualTokenClock
    private let lock = NSLock()
    private var sleeps = 0

    init(_ manual: ManualTokenClock) { self.manual = manual }

    var sleepCount: Int { lock.withLock { sleeps } }

    func now() -> TimeInterval { manual.now() }

    func sleep(seconds: TimeInterval) async throws {
        lock.withLock { sleeps += 1 }
        try await manual.sleep(seconds: seconds)
    }
}
