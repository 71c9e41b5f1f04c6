import Foundation
import Testing
import ZeroPiiMockServer
import ZeroPiiSDK
import ZeroPiiTestSupport

/// The SDK with its real URLSession transport against the mock server over loopback.
/// Serialized: the tests share the SDK's one shared instance.
@Suite(.serialized)
struct SDKAgainstMockServerTests {
    @Test func everyMethodForEveryTypePreservesFormats() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let (server, _, sdk) = try startStack()
            defer { server.stop() }
            let singles: [(TokenizeResult, String)] = [
                (await sdk.tokenize("alice@example.com"), "alice@example.com"),
                (await sdk.tokenize("+1 (555) 010-2345"), "+1 (555) 010-2345"),
                (await sdk.tokenize(42), "42"),
                (await sdk.tokenize(Int64(9_876_543_210)), "9876543210"),
                (await sdk.tokenize(Float(3.14)), "3.14"),
                (await sdk.tokenize(-2.5e-5), "-2.5E-5"),
                (await sdk.tokenize(true), "true"),
            ]
            for (result, sent) in singles {
                #expect(result.isSuccess, "\(sent)")
                let token = try #require(result.token)
                #expect(token.formatShape == sent.formatShape, "\(sent) → \(token)")
                #expect(result.newlyCreated && !result.exists)
                #expect(result.dataType == (sent.first!.isNumber || sent.hasPrefix("-") ? "number" : "string"))
            }
            let again = await sdk.tokenize("alice@example.com")
            #expect(again.exists && again.token == singles[0].0.token)

            let batches: [(BatchTokenizeResult, [String])] = [
                (await sdk.batchTokenize(["a@example.com", "b@example.com", "a@example.com"]), ["a@example.com", "b@example.com", "a@example.com"]),
                (await sdk.batchTokenize([1, 2, 42]), ["1", "2", "42"]),
                (await sdk.batchTokenize([Int64.min, Int64.max]), [String(Int64.min), String(Int64.max)]),
                (await sdk.batchTokenize([Float(1.1), 1e10]), ["1.1", "1.0E10"]),
                (await sdk.batchTokenize([1.111, 1e7, -0.0]), ["1.111", "1.0E7", "-0.0"]),
                (await sdk.batchTokenize([true, false]), ["true", "false"]),
            ]
            for (result, sent) in batches {
                #expect(result.isSuccess, "\(sent)")
                #expect(result.results.map(\.originalValue) == sent)
                for item in result.results { #expect(item.token.formatShape == item.originalValue.formatShape) }
            }
            #expect(batches[0].0.results[0].token == batches[0].0.results[2].token)
            #expect(batches[0].0.results.map(\.newlyCreated) == [true, true, false])
            #expect(batches[1].0.results[2].exists && batches[1].0.results[2].token == singles[2].0.token)

            // The callback API over the same stack.
            let viaCallback = await withCheckedContinuation { continuation in
                sdk.tokenizeString("alice@example.com") { continuation.resume(returning: $0) }
            }
            #expect(viaCallback.token == singles[0].0.token)
        }
    }

    @Test func anExpiredTokenIsRefreshedOnce() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let (server, provider, sdk) = try startStack()
            defer { server.stop() }
            #expect(await sdk.tokenize("first").isSuccess)
            #expect(provider.fetches == 1)
            server.expireAllAccessTokens()
            let result = await sdk.tokenize("second")
            #expect(result.isSuccess)
            #expect(provider.fetches == 2)
            #expect(server.statistics.requestCounts["tokenize 401"] == 1)
        }
    }

    @Test func faultsGiveTheDocumentedResults() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let clock = ImmediateRetryClock()
            let (server, _, sdk) = try startStack(retryClock: clock, requestTimeout: 2)
            defer { server.stop() }
            let started = Date()

            server.faults.inject(.status(503, retryAfter: "1"))
            #expect(await sdk.tokenize("a").isSuccess)  // retried once, then served
            #expect(clock.sleeps == [2000])

            server.faults.inject(.status(503, retryAfter: nil), count: 2)
            let exhausted = await sdk.tokenize("b")
            #expect(!exhausted.isSuccess && exhausted.httpStatusCode == 503)

            server.faults.inject(.status(400, retryAfter: nil), count: 2)
            let rejected = await sdk.tokenize("c")
            #expect(!rejected.isSuccess && rejected.httpStatusCode == 400)
            // The first call did not retry, so the second fault is still queued for the next call.
            #expect(await sdk.tokenize("c").httpStatusCode == 400)
            #expect(await sdk.tokenize("c").isSuccess)

            server.faults.inject(.dropConnection)
            #expect(await sdk.tokenize("d").isSuccess)  // a network failure, retried

            server.faults.inject(.corruptCiphertext)
            let corrupted = await sdk.tokenize("e")
            #expect(!corrupted.isSuccess && corrupted.errorMessage == "the response could not be decrypted")

            server.faults.inject(.downgrade)
            let downgraded = await sdk.tokenize("f")
            #expect(!downgraded.isSuccess && downgraded.token == nil)
            #expect(downgraded.errorMessage?.contains("without payload encryption") == true)

            // Far slower than the 2 s limit: in the full suite the transport's timer runs on
            // a cooperative pool that process-running tests hold for seconds, and a 3 s
            // answer once arrived before the timer fired.
            server.faults.setLatency(20)
            let slow = await sdk.tokenize("g")  // times out after 2 s, retried, times out again
            server.faults.setLatency(0)
            #expect(!slow.isSuccess && slow.errorMessage?.contains("timed out") == true)
            #expect(Date().timeIntervalSince(started) < 60)
        }
    }

    /// With the default transport (libcurl on Linux) and a cached token, a call's request
    /// carries the call's own limit, and libcurl's timer ends it: the result is the call's
    /// time-out, not a network failure, on time.
    @Test func aCallsLimitShorterThanTheAttemptsEndsItOnTime() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let (server, _, sdk) = try startStack(requestTimeout: 30, callTimeout: 1)
            defer { server.stop() }
            // A token and a connection. Beside hundreds of other tests a call may pass
            // the 1 s limit here (the fetch goes on and caches the token): call again.
            var warmed = false
            for _ in 0..<30 where !warmed { warmed = await sdk.tokenize("warm-up").isSuccess }
            #expect(warmed)
            server.faults.setLatency(20)
            let started = Date()
            let slow = await sdk.tokenize("slow")
            let seconds = Date().timeIntervalSince(started)
            server.faults.setLatency(0)
            #expect(slow.errorKind == .timeout)
            #expect(slow.errorMessage == "the call did not finish within its time limit of 1 s")
            // No sooner than the limit; the margin is CallLimitsUnderLoadTests'.
            #expect(seconds >= 0.99 && seconds < 1 + CallLimitsUnderLoadTests.margin, "\(seconds) s")
        }
    }

    /// Found from outside: a request whose reused connection the server closed without
    /// answering was sent again by libcurl on a new connection (the same request id,
    /// with a policy of no retries). Now the attempt fails and the policy decides.
    @Test func aDroppedRequestIsSentOnceAndThePolicyDecides() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let (server, _, sdk) = try startStack(retryPolicy: DefaultRetryPolicy(maximumRetries: 0, baseDelayMs: 0))
            defer { server.stop() }
            #expect(await sdk.tokenize("warm-up").isSuccess)  // a token, and a connection to reuse
            func tokenizeRequests() -> Int {
                server.statistics.requestCounts.filter { $0.key.hasPrefix("tokenize ") }.values.reduce(0, +)
            }
            let before = tokenizeRequests()
            server.faults.inject(.dropConnection)
            let dropped = await sdk.tokenize("dropped")
            #expect(dropped.errorKind == .network && dropped.httpStatusCode == nil)
            #expect(tokenizeRequests() == before + 1)
            // With a retry allowed, the next attempt is sealed afresh and served.
            let (retrying, _, retryingSDK) = try startStack(retryPolicy: DefaultRetryPolicy(maximumRetries: 1, baseDelayMs: 0))
            defer { retrying.stop() }
            #expect(await retryingSDK.tokenize("warm-up").isSuccess)
            retrying.faults.inject(.dropConnection)
            #expect(await retryingSDK.tokenize("dropped").isSuccess)
            #expect(retrying.statistics.requestCounts["tokenize 409"] == nil)
        }
    }

    @Test func aThousandConcurrentCallsAndFiftyConcurrentBatches() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            // A generous per-attempt timeout and call limit: 50 batches of 1000 queue up at the
            // server, and under a sanitizer the wait can pass the usual 10 s (and 120 s).
            let (server, provider, sdk) = try startStack(requestTimeout: 300, callTimeout: 900)
            defer { server.stop() }
            let singles = await withTaskGroup(of: (Int, TokenizeResult).self) { group in
                for index in 0..<1000 { group.addTask { (index, await sdk.tokenize("user\(index)@example.com")) } }
                return await group.reduce(into: [(Int, TokenizeResult)]()) { $0.append($1) }
            }
            #expect(singles.count == 1000)
            for (index, result) in singles {
                #expect(result.isSuccess && result.newlyCreated)
                #expect(result.token == server.vault.token(for: "user\(index)@example.com"))
            }
            #expect(provider.fetches == 1)

            let batches = await withTaskGroup(of: (Int, BatchTokenizeResult).self) { group in
                for batch in 0..<50 {
                    group.addTask { (batch, await sdk.batchTokenize((0..<1000).map { "b\(batch)-\($0)" })) }
                }
                return await group.reduce(into: [(Int, BatchTokenizeResult)]()) { $0.append($1) }
            }
            #expect(batches.count == 50)
            for (batch, result) in batches {
                #expect(result.isSuccess && result.results.count == 1000, "batch \(batch): \(result.errorMessage ?? "")")
                #expect(result.summary?.newlyCreatedCount == 1000)
                for (offset, item) in result.results.enumerated() {
                    #expect(item.originalValue == "b\(batch)-\(offset)")
                    #expect(item.token == server.vault.token(for: item.originalValue))
                }
            }
            #expect(server.vault.count == 51_000)
        }
    }

    @Test func tokensSurviveAServerRestart() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let path = NSTemporaryDirectory() + "zeropii-integration-\(UUID().uuidString).db"
            defer { for file in [path, path + ".index"] { try? FileManager.default.removeItem(atPath: file) } }
            var (server, _, sdk) = try startStack(dataFile: path)
            let before = await sdk.batchTokenize(["kept@example.com", "555-0100"])
            #expect(before.isSuccess)
            server.stop()

            (server, _, sdk) = try startStack(dataFile: path)
            defer { server.stop() }
            let after = await sdk.batchTokenize(["kept@example.com", "555-0100"])
            #expect(after.results.map(\.token) == before.results.map(\.token))
            #expect(after.results.allSatisfy { $0.exists && !$0.newlyCreated })
        }
    }
}

/// Hostile values through the SDK against the real server: each gives a clear result,
/// never a crash and never a wrong token.
@Suite(.serialized)
struct HostileValuesTests {
    @Test func emptyHugeAndExoticValues() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            // Not a timing test: under ThreadSanitizer on a busy machine a 4 KB value of
            // non-ASCII letters once took the mock server over the usual 10 s.
            let (server, _, sdk) = try startStack(requestTimeout: 120)
            defer { server.stop() }
            let empty = await sdk.tokenize("")
            #expect(!empty.isSuccess && empty.httpStatusCode == 400)
            let huge = await sdk.tokenize(String(repeating: "x", count: 1 << 20))
            #expect(!huge.isSuccess && huge.httpStatusCode == 400 && huge.errorMessage?.contains("xxxx") == false)
            let atLimit = await sdk.tokenize(String(repeating: "é", count: 2048))
            #expect(atLimit.isSuccess)

            // One character from every Unicode plane in use, and scalars around the
            // surrogate range (Swift strings cannot hold lone surrogates).
            let exotic = [
                "\u{7F}\u{80}", "\u{FFFD}", "\u{D7FF}\u{E000}", "𐍈 plane 1", "𠜎 plane 2", "\u{30000} plane 3",
                "\u{E0041} plane 14", "\u{F0000} plane 15", "\u{10FFFD} plane 16", "a\u{0}b", "👩‍👩‍👧 ZWJ",
            ]
            let batch = await sdk.batchTokenize(exotic)
            #expect(batch.isSuccess)
            for item in batch.results {
                #expect(item.token.unicodeScalars.count == item.originalValue.unicodeScalars.count)
                #expect(item.token.formatShape == item.originalValue.formatShape)
                #expect(item.token == server.vault.token(for: item.originalValue))
            }

            #expect(await sdk.tokenize(Int64.min).token.map { $0.count == String(Int64.min).count } == true)
            #expect(await sdk.tokenize(Double.nan).errorMessage == "NaN and infinite numbers cannot be tokenized")
            #expect(await sdk.tokenize(-Float.infinity).isSuccess == false)
            #expect(server.statistics.count(endpoint: "tokenize") == 4)  // no request for NaN or infinity
        }
    }
}
