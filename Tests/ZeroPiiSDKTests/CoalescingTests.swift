import Foundation
import Testing
import ZeroPiiModels
import ZeroPiiTestHelpers
import ZeroPiiTestSupport
import ZeroPiiTransport

@testable import ZeroPiiSDK

/// ZeroPiiConfiguration.coalescing: concurrent single calls share batch requests, and
/// each caller still gets what it would have got alone. The window runs on a manual
/// clock, so nothing here waits for time to pass.
struct CoalescingTests {
    @Test func callsInOneWindowTravelInOneBatchAndEachGetsItsOwnItem() async throws {
        let server = InTestServer()
        #expect(await makeClient(server: server, wireProfile: .plaintext).tokenize("b@example.com").isSuccess)
        let clock = ManualTokenClock()
        let client = makeCoalescingClient(server: server, clock: clock)
        let values = ["a@example.com", "b@example.com", "42", "a@example.com", "c", "a@example.com", "42"]

        let results = try await tokenizeConcurrently(values, with: client) {
            try await waitUntil("every caller joined") { client.coalescer!.joinCount == values.count }
            #expect(server.requests.count == 1, "nothing is sent before the window closes")
            try await closeWindow(of: client, on: clock)
        }

        let requests = server.requests
        #expect(requests.count == 2)
        let batch = try #require(requests.last)
        #expect(batch.url.path.hasSuffix("/ct-vault/api/v2/tokenize/batch"))
        // Each distinct value travels once, however many callers asked for it.
        #expect(sentValues(batch).sorted() == ["42", "a@example.com", "b@example.com", "c"])
        for (value, result) in zip(values, results) {
            #expect(result.isSuccess, "\(value)")
            #expect(result.token == InTestServer.token(for: value), "\(value)")
            #expect(result.dataType == (value == "42" ? "number" : "string"))
        }
        // b was known; the three callers of the new a share its one item's flags.
        #expect(results[1].exists && !results[1].newlyCreated)
        for index in [0, 3, 5] { #expect(results[index].newlyCreated && !results[index].exists) }
        #expect(client.coalescer!.slotCount == 0)
    }

    @Test func encryptedBatchesWorkTheSameWay() async throws {
        let server = InTestServer()
        let client = makeCoalescingClient(server: server, clock: ManualTokenClock(), maximumBatchSize: 3, wireProfile: .protocolV1)
        let results = try await tokenizeConcurrently(["x", "y", "z"], with: client)
        #expect(results.map(\.token) == ["x", "y", "z"].map(InTestServer.token(for:)))
        #expect(server.requests.count == 1 && server.requests[0].header("X-ZeroPii-Encryption") == "v1")
    }

    @Test func aFullBatchGoesAtOnceAndALoneValueTakesTheSingleEndpoint() async throws {
        let server = InTestServer()
        let clock = ManualTokenClock()
        let client = makeCoalescingClient(server: server, clock: clock, maximumBatchSize: 3)
        let values = (1...7).map { "value-\($0)" }

        let results = try await tokenizeConcurrently(values, with: client) {
            // Two full batches leave without the clock moving; the seventh value waits.
            try await waitUntil("two full batches were sent") { server.requests.count == 2 && client.coalescer!.gatheringCount == 1 }
            try await closeWindow(of: client, on: clock)
        }

        #expect(results.map(\.token) == values.map(InTestServer.token(for:)))
        let requests = server.requests
        #expect(requests.map { $0.url.path.hasSuffix("/batch") } == [true, true, false])
        #expect(requests.map { sentValues($0).count } == [3, 3, 1])
        #expect(Set(requests.flatMap(sentValues)) == Set(values))
    }

    @Test func aValueTheServerRejectsFailsOnlyItsOwnCaller() async throws {
        let server = InTestServer()
        // A server that rejects, with 400, any request holding the bad value.
        let recorder = RequestRecorder()
        let transport = ClosureTransport { request in
            recorder.record(request)
            if sentValues(request).contains("bad-value") {
                return InTestServer.errorResponse(status: 400, code: "invalid_value")
            }
            return server.handle(request)
        }
        let values = (1...7).map { "good-\($0)" } + ["bad-value"]
        let client = makeCoalescingClient(server: server, transport: transport, clock: ManualTokenClock(), maximumBatchSize: values.count)

        let results = try await tokenizeConcurrently(values, with: client)

        for (value, result) in zip(values.dropLast(), results) {
            #expect(result.isSuccess && result.token == InTestServer.token(for: value), "\(value)")
        }
        let rejected = try #require(results.last)
        #expect(!rejected.isSuccess && rejected.httpStatusCode == 400 && rejected.errorKind == .invalidInput)
        #expect(rejected.errorMessage == "the server rejected the request as invalid (HTTP 400) [invalid_value]")
        // 8 → 4 + 4 (one fails) → 2 + 2 (one fails) → 1 + 1, the bad value alone last.
        let requests = recorder.requests
        #expect(requests.count == 7)
        #expect(requests.map { sentValues($0).count }.sorted() == [1, 1, 2, 2, 4, 4, 8])
        #expect(requests.contains { sentValues($0) == ["bad-value"] && $0.url.path.hasSuffix("/v2/tokenize") })
    }

    @Test func aFailureOfTheWholeRequestReachesEveryCallerWithoutSplitting() async throws {
        let server = InTestServer()
        server.script(status: 503)
        server.script(status: 503)
        let values = ["a", "b", "c", "d"]
        let client = makeCoalescingClient(server: server, clock: ManualTokenClock(), maximumBatchSize: values.count)

        let results = try await tokenizeConcurrently(values, with: client)

        for result in results {
            #expect(!result.isSuccess && result.httpStatusCode == 503 && result.errorKind == .server)
        }
        // The default policy's one retry, and no split: halves would fail alike.
        #expect(server.requests.count == 2)
    }

    @Test func cancellingOneCallerInFlightLeavesTheOthersTheirResults() async throws {
        let server = InTestServer()
        let held = HeldTransport(server: server)
        let client = makeCoalescingClient(server: server, transport: held.transport, clock: ManualTokenClock(), maximumBatchSize: 3)
        let first = Task { await client.tokenize("first") }
        let second = Task { await client.tokenize("second") }
        let third = Task { await client.tokenize("third") }
        try await waitUntil("the batch reached the transport") { held.arrived == 1 }

        second.cancel()
        let cancelled = await second.value
        // The cancelled caller has its answer while the shared request is still held.
        #expect(!cancelled.isSuccess && cancelled.errorKind == .cancelled)
        #expect(held.arrived == 1 && server.requests.isEmpty)

        held.release()
        #expect(await first.value.token == InTestServer.token(for: "first"))
        #expect(await third.value.token == InTestServer.token(for: "third"))
        #expect(server.requests.count == 1 && sentValues(server.requests[0]).count == 3)
    }

    @Test func cancellingACallerWhileItsBatchGathersLeavesTheOthers() async throws {
        let server = InTestServer()
        let clock = ManualTokenClock()
        let client = makeCoalescingClient(server: server, clock: clock)
        let leaving = Task { await client.tokenize("leaving") }
        let staying = Task { await client.tokenize("staying") }
        try await waitUntil("both callers joined") { client.coalescer!.joinCount == 2 }

        leaving.cancel()
        #expect(await leaving.value.errorKind == .cancelled)
        try await closeWindow(of: client, on: clock)
        let stayed = await staying.value
        #expect(stayed.isSuccess && stayed.token == InTestServer.token(for: "staying"))
    }

    @Test func aCallerOfAValueInFlightJoinsItsRequest() async throws {
        let server = InTestServer()
        let held = HeldTransport(server: server)
        let client = makeCoalescingClient(server: server, transport: held.transport, clock: ManualTokenClock(), maximumBatchSize: 2)
        let early = Task { await client.tokenize("shared") }
        let other = Task { await client.tokenize("other") }
        try await waitUntil("the batch reached the transport") { held.arrived == 1 }
        let late = Task { await client.tokenize("shared") }
        try await waitUntil("the late caller joined") { client.coalescer!.joinCount == 3 }
        #expect(client.coalescer!.gatheringCount == 0, "the late caller joined the request in flight, not a new batch")

        held.release()
        let (earlyResult, lateResult) = (await early.value, await late.value)
        #expect(earlyResult.token == InTestServer.token(for: "shared") && lateResult.token == earlyResult.token)
        // Both callers see the one item's flags (documented on Coalescing).
        #expect(earlyResult.newlyCreated && lateResult.newlyCreated)
        #expect(await other.value.isSuccess)
        #expect(held.arrived == 1)
    }

    @Test func eachCallerWaitsNoLongerThanItsOwnTimeLimit() async throws {
        let server = InTestServer()
        let held = HeldTransport(server: server)
        let clock = ManualTokenClock()
        let client = makeClient(server: server, wireProfile: .plaintext) { configuration in
            configuration.coalescing = ZeroPiiConfiguration.Coalescing(maximumBatchSize: 2)
            configuration.tokenClock = clock
            configuration.transport = held.transport
            configuration.callTimeout = 10
        }
        let first = Task { await client.tokenize("one") }
        let second = Task { await client.tokenize("two") }
        try await waitUntil("the batch reached the transport") { held.arrived == 1 }
        // The two callers' limits and the shared request's own, all watched by one timer.
        try await waitUntil("three time limits are running") { client.callDeadlines.pendingCount == 3 && clock.sleeperCount == 1 }
        clock.advance(by: 10)
        #expect(await first.value.errorKind == .timeout)
        #expect(await second.value.errorKind == .timeout)
        held.release()
    }

    @Test func canonicallyEquivalentStringsAreDifferentValues() async throws {
        let server = InTestServer()
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed, "Swift's String equality, which the coalescer must not use")
        let client = makeCoalescingClient(server: server, clock: ManualTokenClock(), maximumBatchSize: 2)
        let results = try await tokenizeConcurrently([precomposed, decomposed], with: client)
        #expect(results[0].token == InTestServer.token(for: precomposed) && results[1].token == InTestServer.token(for: decomposed))
        #expect(results[0].token != results[1].token)
        #expect(server.requests.count == 1 && sentValues(server.requests[0]).map { Array($0.utf8) }.count == 2)
    }

    @Test func optionsAreClampedToWhatTheProtocolAllows() {
        #expect(ZeroPiiConfiguration.Coalescing(maximumBatchSize: 0).effectiveMaximumBatchSize == 1)
        #expect(ZeroPiiConfiguration.Coalescing(maximumBatchSize: 5000).effectiveMaximumBatchSize == 1000)
        #expect(ZeroPiiConfiguration.Coalescing().effectiveMaximumBatchSize == 1000)
        #expect(ZeroPiiConfiguration.Coalescing().effectiveWindow == 0.005)
        #expect(ZeroPiiConfiguration.Coalescing(window: -1).effectiveWindow == 0)
        #expect(ZeroPiiConfiguration.Coalescing(window: .nan).effectiveWindow == 0)
        #expect(ZeroPiiConfiguration.Coalescing(window: 60).effectiveWindow == 1)
        #expect(ZeroPiiConfiguration().coalescing == nil, "off by default")
    }

    @Test func withoutCoalescingEveryCallIsItsOwnRequest() async throws {
        let server = InTestServer()
        let client = makeClient(server: server, wireProfile: .plaintext)
        let values = (1...5).map { "v\($0)" }
        _ = try await tokenizeConcurrently(values, with: client)
        #expect(server.requests.count == 5 && server.requests.allSatisfy { !$0.url.path.hasSuffix("/batch") })
        #expect(client.coalescer == nil)
    }
}
