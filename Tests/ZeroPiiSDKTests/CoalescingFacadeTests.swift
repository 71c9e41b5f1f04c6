import Dispatch
import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

/// Coalescing through the shared instance: callback and `async` callers in one batch,
/// each answered once, where it asked to be.
@Suite(.serialized)
struct CoalescingFacadeTests {
    /// Counts callbacks per call and resumes the test once all are in.
    final class CallbackTally: @unchecked Sendable {
        // Sendable: all state is guarded by `lock`.
        private let lock = NSLock()
        private var counts: [Int: Int] = [:]
        private var results: [Int: TokenizeResult] = [:]
        private var wrongQueue = 0

        func record(_ call: Int, _ result: TokenizeResult, onExpectedQueue: Bool) {
            lock.withLock {
                counts[call, default: 0] += 1
                results[call] = result
                if !onExpectedQueue { wrongQueue += 1 }
            }
        }

        var snapshot: (counts: [Int: Int], results: [Int: TokenizeResult], wrongQueue: Int) {
            lock.withLock { (counts, results, wrongQueue) }
        }
    }

    @Test func callbackAndAsyncCallersShareOneBatchAndEachIsAnsweredOnceOnItsQueue() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let server = InTestServer()
            let clock = ManualTokenClock()
            let queue = DispatchQueue(label: "zeropii.tests.coalesced-callbacks")
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            var configuration = ZeroPiiConfiguration()
            configuration.transport = server.transport
            configuration.callbackQueue = queue
            configuration.retryClock = ImmediateRetryClock()
            configuration.wireProfile = .plaintext
            configuration.tokenClock = clock
            configuration.coalescing = ZeroPiiConfiguration.Coalescing()
            let sdk = ZeroPiiSDK.initialize(
                tokenProvider: ScriptedProvider(), apiUrl: "https://tokens.example.test", logLevel: .off,
                retryPolicy: DefaultRetryPolicy(), configuration: configuration
            )
            let client = sdk.currentEngine.client
            let callbackValues = (0..<10).map { "value-\($0 % 5)" }
            let asyncValues = (0..<10).map { "value-\($0)" }
            let tally = CallbackTally()

            for (call, value) in callbackValues.enumerated() {
                sdk.tokenizeString(value) { result in
                    tally.record(call, result, onExpectedQueue: DispatchQueue.getSpecific(key: key) == true)
                }
            }
            let asyncResults = try await withThrowingTaskGroup(of: (Int, TokenizeResult).self) { group in
                for (call, value) in asyncValues.enumerated() {
                    group.addTask { (call, await sdk.tokenize(value)) }
                }
                try await waitUntil("all twenty callers joined") { client.coalescer!.joinCount == 20 }
                try await closeWindow(of: client, on: clock)
                var results: [Int: TokenizeResult] = [:]
                for try await (call, result) in group { results[call] = result }
                return results
            }
            try await waitUntil("every callback arrived") { tally.snapshot.counts.count == callbackValues.count }
            // Anything queued behind the callbacks has run by now: a second delivery would show.
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }

            let (counts, callbackResults, wrongQueue) = tally.snapshot
            #expect(counts.values.allSatisfy { $0 == 1 }, "each callback exactly once")
            #expect(wrongQueue == 0, "every callback on the configured queue")
            for (call, value) in callbackValues.enumerated() {
                #expect(callbackResults[call]?.token == InTestServer.token(for: value))
            }
            for (call, value) in asyncValues.enumerated() {
                #expect(asyncResults[call]?.token == InTestServer.token(for: value))
            }
            #expect(server.requests.count == 1 && sentValues(server.requests[0]).count == 10)
        }
    }
}
