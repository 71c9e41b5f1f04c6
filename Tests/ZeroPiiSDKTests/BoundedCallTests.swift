import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long, in real time, a test waits for something the code under test does by
/// itself before it fails; waits are notified, so the bound only turns a bug into a
/// failure instead of a hang.
private let patience: TimeInterval = 300

/// ``BoundedCall`` starts a call's pipeline on the caller's thread (`Task.immediate`,
/// where the compiler and the system have it): a pipeline that finishes without
/// suspending ends the call without a hop between threads, and one that suspends is
/// bounded by its time limit and by cancellation as before.
struct BoundedCallTests {
    /// Whether this build and system start the pipeline on the caller's thread.
    private static var startsImmediately: Bool {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return true }
        #endif
        return false
    }

    /// The calling thread, as a number that can cross into a `@Sendable` closure.
    private static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Repeated: an ordinary task would often run on the caller's thread too, once the
    /// caller has given it up, but not twenty times in a row.
    @Test func aPipelineThatNeverSuspendsRunsOnTheCallersThreadAndDeliversOnce() async throws {
        let deadlines = CallDeadlines(clock: ManualTokenClock())
        for call in 0..<20 {
            let runs = Watched<[UInt]>([])
            let caller = Self.currentThread()
            let result = await BoundedCall.run(timeLimit: 5, deadlines: deadlines) { () -> Result<Int, RequestFailure> in
                runs.change { $0.append(Self.currentThread()) }
                return .success(call)
            }
            let resumedOn = Self.currentThread()
            #expect(try result.get() == call)
            #expect(runs.value.count == 1)
            #expect(deadlines.pendingCount == 0)
            if Self.startsImmediately {
                // Started before the caller waited, and the caller went on without waiting.
                #expect(runs.value == [caller])
                #expect(resumedOn == caller)
            }
        }
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

    /// The caller is cancelled while the pipeline's first, synchronous part runs on its
    /// thread: the call ends cancelled as soon as that part reaches a suspension, and the
    /// pipeline task, which was not known yet when the cancellation came, is cancelled
    /// then.
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

    /// Through the client: once a token is cached, a request whose transport answers at
    /// once is made on the caller's thread from start to end (the token is taken without
    /// entering the token cache's actor, which would be a hop).
    @Test func aRequestAnsweredAtOnceWithACachedTokenStaysOnTheCallersThread() async throws {
        let server = InTestServer()
        let provider = ScriptedProvider()
        let transportThreads = Watched<[UInt]>([])
        let client = makeClient(server: server, provider: provider) { configuration in
            configuration.tokenClock = ManualTokenClock()
            configuration.transport = ClosureTransport { request in
                transportThreads.change { $0.append(Self.currentThread()) }
                return server.handle(request)
            }
        }
        let first = await client.tokenize("first")
        #expect(first.token == InTestServer.token(for: "first"))
        for call in 0..<20 {
            let value = "value-\(call)"
            let caller = Self.currentThread()
            let result = await client.tokenize(value)
            let resumedOn = Self.currentThread()
            #expect(result.token == InTestServer.token(for: value))
            if Self.startsImmediately {
                #expect(transportThreads.value.last == caller)
                #expect(resumedOn == caller)
            }
        }
        #expect(provider.calls == 1)
        #expect(transportThreads.value.count == 21)
    }
}
