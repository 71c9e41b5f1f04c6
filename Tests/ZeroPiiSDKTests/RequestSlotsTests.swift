import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

/// The bound on requests in flight (``ZeroPiiConfiguration/maximumConcurrentRequests``,
/// ``RequestSlots``): never more than the limit at once, waiters served in the order
/// they came, and a waiter that is cancelled leaves at once without taking a slot.
struct RequestSlotsTests {
    /// How long a test waits, in real time, for something that should happen at once.
    let patience: TimeInterval = 120

    /// Counts the sends running now and the most there ever were.
    final class InFlightCounter: @unchecked Sendable {
        // Sendable: the counts are guarded by `lock`.
        private let lock = NSLock()
        private var now = 0
        private var most = 0
        private var total = 0

        func enter() {
            lock.withLock {
                now += 1
                total += 1
                most = max(most, now)
            }
        }

        func leave() { lock.withLock { now -= 1 } }

        var figures: (now: Int, most: Int, total: Int) { lock.withLock { (now, most, total) } }
    }

    @Test func atMostTheLimitRunAtOnceUnderContention() async throws {
        let slots = RequestSlots(limit: 4)
        let counter = InFlightCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2_000 {
                group.addTask {
                    try await slots.withSlot {
                        counter.enter()
                        for _ in 0..<3 { await Task.yield() }
                        counter.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        let figures = counter.figures
        #expect(figures.total == 2_000 && figures.now == 0)
        #expect(figures.most <= 4)
        #expect(slots.snapshot == (0, 0))
    }

    @Test func lessThanOneCountsAsOne() {
        #expect(RequestSlots(limit: 0).limit == 1)
        #expect(RequestSlots(limit: -5).limit == 1)
        #expect(RequestSlots(limit: .max).limit == .max)
    }

    /// With one slot held, waiters that queue one after another get it in that order.
    @Test func waitersAreServedInTheOrderTheyCame() async throws {
        let slots = RequestSlots(limit: 1)
        let holder = RequestGate()
        let order = Watched<[Int]>([])
        let held = Task { try await slots.withSlot { await holder.pass { _ in false } } }
        try #require(await holder.waitForRequests(1, atMost: patience))
        var waiters: [Task<Void, any Error>] = []
        for number in 0..<20 {
            waiters.append(Task { try await slots.withSlot { order.change { $0.append(number) } } })
            try await waitUntil("waiter \(number) queued") { slots.snapshot.waiting == number + 1 }
        }
        holder.open()
        try await held.value
        for waiter in waiters { try await waiter.value }
        #expect(order.value == Array(0..<20))
        #expect(slots.snapshot == (0, 0))
    }

    /// A waiter cancelled while every slot is held ends at once (the slot is still held
    /// when it does), and the slot later goes to the next waiter, not to it.
    @Test func aCancelledWaiterLeavesAtOnceAndTakesNoSlot() async throws {
        let slots = RequestSlots(limit: 1)
        let holder = RequestGate()
        let ran = Watched<[String]>([])
        let held = Task { try await slots.withSlot { await holder.pass { _ in false } } }
        try #require(await holder.waitForRequests(1, atMost: patience))
        let cancelled = Task { try await slots.withSlot { ran.change { $0.append("cancelled") } } }
        try await waitUntil("the waiter queued") { slots.snapshot.waiting == 1 }
        let next = Task { try await slots.withSlot { ran.change { $0.append("next") } } }
        try await waitUntil("the waiter queued") { slots.snapshot.waiting == 2 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(slots.snapshot.inFlight == 1)
        holder.open()
        try await held.value
        try await next.value
        #expect(ran.value == ["next"])
        #expect(slots.snapshot == (0, 0))
    }

    /// Many waiters, half of them cancelled at random moments while they wait or run:
    /// the bound holds, every waiter ends, and all slots come back.
    @Test func cancellationsUnderContentionGiveEverySlotBack() async throws {
        let slots = RequestSlots(limit: 3)
        let counter = InFlightCounter()
        var random = SplitMix64(seed: 29)
        var tasks: [Task<Void, any Error>] = []
        for _ in 0..<1_000 {
            tasks.append(
                Task {
                    try await slots.withSlot {
                        counter.enter()
                        await Task.yield()
                        counter.leave()
                    }
                })
            if random.next() % 2 == 0 { tasks[Int(random.next() % UInt64(tasks.count))].cancel() }
        }
        for task in tasks { _ = try? await task.value }
        #expect(counter.figures.most <= 3 && counter.figures.now == 0)
        #expect(slots.snapshot.inFlight == 0)
        // Every slot is free again: three sends at once get through without waiting.
        let gate = RequestGate()
        let three = (0..<3).map { _ in Task { try await slots.withSlot { await gate.pass { _ in false } } } }
        try #require(await gate.waitForRequests(3, atMost: patience))
        gate.open()
        for task in three { try await task.value }
    }

    // MARK: Through the SDK's client

    /// Fifty calls at once through a client allowed three requests in flight: the
    /// transport never sees more than three at a time, and every call succeeds.
    @Test func aClientKeepsItsRequestsInFlightWithinTheBound() async throws {
        let server = InTestServer()
        let counter = InFlightCounter()
        let client = makeClient(server: server) { configuration in
            configuration.maximumConcurrentRequests = 3
            configuration.transport = ClosureTransport { request in
                counter.enter()
                for _ in 0..<5 { await Task.yield() }
                counter.leave()
                return server.handle(request)
            }
        }
        let results = await withTaskGroup(of: TokenizeResult.self) { group in
            for number in 0..<50 { group.addTask { await client.tokenize("value-\(number)") } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.isSuccess })
        #expect(counter.figures.total == 50 && counter.figures.most <= 3)
    }

    /// A call waiting for a slot is still bounded by its time limit: it ends with a
    /// timeout when the limit passes, and its request is never sent.
    @Test func aCallWhoseLimitPassesWhileItWaitsEndsAndSendsNothing() async throws {
        let server = InTestServer()
        let clock = ManualTokenClock()
        let gate = RequestGate()
        let client = makeClient(server: server) { configuration in
            configuration.maximumConcurrentRequests = 1
            configuration.tokenClock = clock
            configuration.callTimeout = 5
            configuration.transport = ClosureTransport { request in
                await gate.pass { _ in false }
                return server.handle(request)
            }
        }
        let first = Task { await client.tokenize("first") }
        try #require(await gate.waitForRequests(1, atMost: patience))
        let waiting = Task { await client.tokenize("waiting") }
        try await waitUntil("the waiter queued") { client.requestSlots.snapshot.waiting == 1 }
        try #require(await clock.waitForSleepers(1, atMost: patience))
        clock.advance(by: 5)
        let ended = try #require(await value(of: waiting, within: patience))
        #expect(ended.errorKind == .timeout)
        #expect(client.requestSlots.snapshot.inFlight == 1)
        gate.open()
        _ = await value(of: first, within: patience)
        #expect(gate.requestCount == 1)
        try await waitUntil("the first request's slot came back") { client.requestSlots.snapshot == (0, 0) }
    }
}
