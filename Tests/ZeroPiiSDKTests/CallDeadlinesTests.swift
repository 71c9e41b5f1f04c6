import Foundation
import Testing
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

/// Counts how often each deadline expired.
private final class ExpiryTally: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func record(_ name: String) { lock.withLock { counts[name, default: 0] += 1 } }
    var all: [String: Int] { lock.withLock { counts } }
}

/// One timer for all of a client's call limits (``CallDeadlines``), and ``BoundedCall``
/// on top of it: calls that end in time leave no deadline and start or cancel no task.
struct CallDeadlinesTests {
    @Test func deadlinesExpireOnceInTheirOrderAndARemovedOneNever() async throws {
        let clock = ManualTokenClock()
        let deadlines = CallDeadlines(clock: clock)
        let tally = ExpiryTally()
        _ = deadlines.register(after: 5) { tally.record("five") }
        let removed = deadlines.register(after: 10) { tally.record("removed") }
        _ = deadlines.register(after: 10) { tally.record("ten") }
        deadlines.remove(removed)
        #expect(deadlines.pendingCount == 2)
        await waitUntil("the timer sleeps") { clock.sleeperCount == 1 }
        #expect(deadlines.timerStartCount == 1)

        clock.advance(by: 4)
        await waitUntil("nothing is due yet") { clock.sleeperCount == 1 }
        #expect(tally.all.isEmpty)
        clock.advance(by: 1)
        await waitUntil("the first deadline expired") { tally.all == ["five": 1] }
        await waitUntil("the timer sleeps until the next one") { clock.sleeperCount == 1 && deadlines.pendingCount == 1 }
        clock.advance(by: 5)
        await waitUntil("the second deadline expired") { tally.all == ["five": 1, "ten": 1] }
        await waitUntil("the timer stopped") { !deadlines.timerIsRunning && clock.sleeperCount == 0 }
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
        _ = deadlines.register(after: 20) { tally.record("twenty") }
        #expect(deadlines.timerStartCount == 1)
        _ = deadlines.register(after: 2) { tally.record("two") }
        #expect(deadlines.timerStartCount == 2)
        // The first timer's sleep was cancelled; only the new one sleeps.
        await waitUntil("one timer sleeps") { clock.sleeperCount == 1 }
        clock.advance(by: 2)
        await waitUntil("the earliest expired") { tally.all == ["two": 1] }
        clock.advance(by: 8)
        await waitUntil("the next expired") { tally.all == ["two": 1, "ten": 1] }
        clock.advance(by: 10)
        await waitUntil("the last expired") { tally.all == ["two": 1, "ten": 1, "twenty": 1] }
        #expect(deadlines.timerStartCount == 2)
    }

    @Test func aClockThatJumpsPastSeveralDeadlinesExpiresThemAllInOneWakeUp() async throws {
        let clock = ManualTokenClock()
        let deadlines = CallDeadlines(clock: clock)
        let tally = ExpiryTally()
        for seconds in 1...50 {
            _ = deadlines.register(after: TimeInterval(seconds)) { tally.record("deadline \(seconds)") }
        }
        await waitUntil("the timer sleeps") { clock.sleeperCount == 1 }
        clock.advance(by: 1000)
        await waitUntil("every deadline expired") { tally.all.count == 50 }
        await waitUntil("the timer stopped") { !deadlines.timerIsRunning && clock.sleeperCount == 0 && deadlines.pendingCount == 0 }
        #expect(tally.all.values.allSatisfy { $0 == 1 })
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
        // Never cancelled: the one timer still sleeps until the first call's deadline.
        #expect(clock.sleeperCount == 1)

        clock.advance(by: 10)
        await waitUntil("the timer found nothing due and stopped") { !client.callDeadlines.timerIsRunning && clock.sleeperCount == 0 }
        #expect(await client.tokenize("later").token == InTestServer.token(for: "later"))
        #expect(client.callDeadlines.timerStartCount == 2)
    }

    @Test func hangingCallsUnderContentionEachTimeOutOnceAtTheirLimit() async throws {
        let clock = ManualTokenClock()
        let gate = RequestGate()
        let server = InTestServer()
        let client = makeClient(server: server, wireProfile: .plaintext) { configuration in
            configuration.tokenClock = clock
            configuration.callTimeout = 5
            configuration.transport = ClosureTransport { request in
                // "hang-" values wait for the gate, ignoring cancellation; the others are answered.
                let hangs = String(decoding: request.body, as: UTF8.self).contains("hang-")
                await gate.pass { _ in !hangs }
                return server.handle(request)
            }
        }
        let values = (0..<200).map { $0.isMultiple(of: 2) ? "answer-\($0)" : "hang-\($0)" }
        let calls = values.map { sent in Task { await client.tokenize(sent) } }
        try #require(await waitUntil(atMost: 600) { gate.requestCount == 200 && client.callDeadlines.pendingCount == 100 })
        #expect(clock.sleeperCount == 1)
        clock.advance(by: 5)
        for (sent, call) in zip(values, calls) {
            let result = try #require(await value(of: call, within: 10))
            if sent.hasPrefix("answer-") {
                #expect(result.token == InTestServer.token(for: sent))
            } else {
                #expect(result.errorKind == .timeout)
                #expect(result.errorMessage == "the call did not finish within its time limit of 5 s")
            }
        }
        #expect(client.callDeadlines.pendingCount == 0)
        gate.open()
    }

    @Test func aCancelledCallRemovesItsDeadlineAndOthersKeepTheirs() async throws {
        let clock = ManualTokenClock()
        let gate = RequestGate()
        let server = InTestServer()
        let client = makeClient(server: server, wireProfile: .plaintext) { configuration in
            configuration.tokenClock = clock
            configuration.callTimeout = 5
            configuration.transport = ClosureTransport { request in
                await gate.pass { _ in false }
                return server.handle(request)
            }
        }
        let cancelled = Task { await client.tokenize("cancelled") }
        let kept = Task { await client.tokenize("kept") }
        try #require(await waitUntil(atMost: 600) { gate.requestCount == 2 && client.callDeadlines.pendingCount == 2 })
        cancelled.cancel()
        #expect(try #require(await value(of: cancelled, within: 10)).errorKind == .cancelled)
        #expect(client.callDeadlines.pendingCount == 1)
        gate.open()
        #expect(try #require(await value(of: kept, within: 10)).token == InTestServer.token(for: "kept"))
        #expect(client.callDeadlines.pendingCount == 0)
    }
}
