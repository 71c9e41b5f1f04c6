import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

/// How long, in real time, a test waits for something the code under test does by
/// itself before it fails; waits are notified, so the bound only turns a bug into a
/// failure instead of a hang.
private let patience: TimeInterval = 300

/// ``BoundedCall`` runs a call's pipeline in a task of its own and ends the call at the
/// first of the pipeline's result, its time limit and the caller's cancellation.
struct BoundedCallTests {
    @Test func aPipelineThatNeverSuspendsDeliversOnceAndLeavesNoDeadline() async throws {
        let deadlines = CallDeadlines(clock: ManualTokenClock())
        for call in 0..<20 {
            let runs = Watched(0)
            let result = await BoundedCall.run(timeLimit: 5, deadlines: deadlines) { () -> Result<Int, RequestFailure> in
                runs.change { $0 += 1 }
                return .success(call)
            }
            #expect(try result.get() == call)
            #expect(runs.value == 1)
            #expect(deadlines.pendingCount == 0)
        }
    }

    /// Many calls at once on a 2-thread pool, each with a pipeline that answers at once
    /// or after one suspension: every one delivers its own result. (With the pipeline
    /// started by `Task.immediate`, calls in the full suite sometimes never ran theirs.)
    @Test func manyConcurrentCallsEachGetTheirOwnResult() async throws {
        let deadlines = CallDeadlines(clock: ManualTokenClock())
        let results = await withTaskGroup(of: (Int, Int?).self) { group in
            for call in 0..<2_000 {
                group.addTask {
                    let result = await BoundedCall.run(timeLimit: 60, deadlines: deadlines) { () -> Result<Int, RequestFailure> in
                        if call % 2 == 0 { await Task.yield() }
                        return .success(call)
                    }
                    return (call, try? result.get())
                }
            }
            var collected: [Int: Int?] = [:]
            for await (call, value) in group { collected[call] = value }
            return collected
        }
        #expect(results.count == 2_000)
        #expect(results.allSatisfy { $0.key == $0.value })
        #expect(deadlines.pendingCount == 0)
    }

    @Test func aCallerCancelledBeforeTheCallNeverStartsThePipeline() async throws {
        let deadlines = CallDeadlines(clock: ManualTokenClock())
        let runs = Watched(0)
        let call = Task { () -> Result<String, RequestFailure> in
            withUnsafeCurrentTask { $0?.cancel() }
            return await BoundedCall.run(timeLimit: 5, deadlines: deadlines) {
                runs.change { $0 += 1 }
                return .success("answered")
            }
        }
        let result = try #require(await value(of: call, within: patience))
        #expect(throws: RequestFailure.self) { try result.get() }
        if case .failure(let failure) = result { #expect(failure.kind == .cancelled) }
        #expect(runs.value == 0)
        #expect(deadlines.pendingCount == 0)
    }

    /// The caller is cancelled while the pipeline runs: the call ends cancelled at once,
    /// and the pipeline task is cancelled too.
    @Test func aCancellationDuringThePipelinesFirstPartEndsTheCallAndCancelsThePipeline() async throws {
        let deadlines = CallDeadlines(clock: ManualTokenClock())
        let gate = RequestGate()
        let caller = Watched<Task<Result<String, RequestFailure>, Never>?>(nil)
        let pipelineSawCancellation = Watched<Bool?>(nil)
        let call = Task { () -> Result<String, RequestFailure> in
            _ = await caller.wait(atMost: patience) { $0 != nil }
            return await BoundedCall.run(timeLimit: 5, deadlines: deadlines) {
                caller.value?.cancel()
                // A transport that ignores cancellation and never answers until the gate opens.
                await gate.pass { _ in false }
                pipelineSawCancellation.change { $0 = Task.isCancelled }
                return .success("answered")
            }
        }
        caller.change { $0 = call }
        let result = try #require(await value(of: call, within: patience))
        if case .failure(let failure) = result {
            #expect(failure.kind == .cancelled)
        } else {
            Issue.record("the call was not cancelled: \(result)")
        }
        #expect(deadlines.pendingCount == 0)
        gate.open()
        #expect(await pipelineSawCancellation.wait(atMost: patience) { $0 != nil })
        #expect(pipelineSawCancellation.value == true)
    }

    /// A pipeline that suspends at once and never answers (a transport that ignores
    /// cancellation) still ends at its time limit, and its task is cancelled.
    @Test func aPipelineThatNeverAnswersEndsAtTheTimeLimit() async throws {
        let clock = ManualTokenClock()
        let deadlines = CallDeadlines(clock: clock)
        let gate = RequestGate()
        let pipelineSawCancellation = Watched<Bool?>(nil)
        let call = Task {
            await BoundedCall.run(timeLimit: 5, deadlines: deadlines) { () -> Result<String, RequestFailure> in
                await gate.pass { _ in false }
                pipelineSawCancellation.change { $0 = Task.isCancelled }
                return .success("answered")
            }
        }
        try #require(await gate.waitForRequests(1, atMost: patience), "the pipeline reached the transport")
        try #require(await clock.waitForSleepers(1, atMost: patience), "the timer sleeps")
        clock.advance(by: 5)
        let result = try #require(await value(of: call, within: patience))
        if case .failure(let failure) = result {
            #expect(failure.kind == .timeout)
            #expect(failure.message == "the call did not finish within its time limit of 5 s")
        } else {
            Issue.record("the call did not time out: \(result)")
        }
        #expect(deadlines.pendingCount == 0)
        gate.open()
        #expect(await pipelineSawCancellation.wait(atMost: patience) { $0 != nil })
        #expect(pipelineSawCancellation.value == true)
    }

    /// Through the client: once a token is cached, every request is answered and the
    /// provider is asked once.
    @Test func requestsWithACachedTokenAskTheProviderOnce() async throws {
        let server = InTestServer()
        let provider = ScriptedProvider()
        let transportCalls = Watched(0)
        let client = makeClient(server: server, provider: provider) { configuration in
            configuration.tokenClock = ManualTokenClock()
            configuration.transport = ClosureTransport { request in
                transportCalls.change { $0 += 1 }
                return server.handle(request)
            }
        }
        for call in 0..<21 {
            let value = "value-\(call)"
            #expect(await client.tokenize(value).token == InTestServer.token(for: value))
        }
        #expect(provider.calls == 1)
        #expect(transportCalls.value == 21)
    }
}
