import Foundation
import Testing
import ZeroPiiRetry
import ZeroPiiTestSupport

/// Tells the test when the loop starts sleeping, then waits until cancelled.
struct BlockingClock: RetryClock {
    let entered: AsyncStream<Void>.Continuation

    func now() -> Date { Date() }

    func sleep(milliseconds: Int) async throws {
        entered.yield()
        try await Task.sleep(nanoseconds: 3_600 * 1_000_000_000)
    }
}

struct DefaultRetryPolicyTests {
    @Test func retriesOnceOnTheDocumentedStatuses() {
        let policy = DefaultRetryPolicy()
        for status in [429, 500, 502, 503, 504] {
            #expect(policy.shouldRetry(attempt: 0, httpStatusCode: NSNumber(value: status)))
            #expect(!policy.shouldRetry(attempt: 1, httpStatusCode: NSNumber(value: status)))
        }
        #expect(policy.shouldRetry(attempt: 0, httpStatusCode: nil))
        #expect(!policy.shouldRetry(attempt: 1, httpStatusCode: nil))
        for status in [400, 403, 404, 409, 413, 419, 501, 505] {
            #expect(!policy.shouldRetry(attempt: 0, httpStatusCode: NSNumber(value: status)))
        }
    }

    @Test func delaysDoubleFromTwoSeconds() {
        let policy = DefaultRetryPolicy()
        #expect((0..<4).map { policy.retryDelayMs(attempt: $0) } == [2000, 4000, 8000, 16000])
        #expect(policy.retryDelayMs(attempt: 1000) > 0)
        #expect(policy.retryDelayMs(attempt: -1) == 2000)
    }
}

struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 1_764_489_600)

    @Test func secondsAndDatesAreRead() {
        #expect(RetryAfter.milliseconds(from: "5", now: now) == 5000)
        #expect(RetryAfter.milliseconds(from: " 0 ", now: now) == 0)
        #expect(RetryAfter.milliseconds(from: "3600", now: now) == 60_000)
        #expect(RetryAfter.milliseconds(from: "99999999999999999999999", now: now) == 60_000)
        let inTenSeconds = now.addingTimeInterval(10)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(RetryAfter.milliseconds(from: formatter.string(from: inTenSeconds), now: now) == 10_000)
        #expect(RetryAfter.milliseconds(from: formatter.string(from: now.addingTimeInterval(-30)), now: now) == 0)
        #expect(RetryAfter.milliseconds(from: formatter.string(from: now.addingTimeInterval(7200)), now: now) == 60_000)
    }

    @Test func garbageIsIgnored() {
        #expect(RetryAfter.milliseconds(from: nil, now: now) == nil)
        #expect(RetryAfter.milliseconds(from: "", now: now) == nil)
        #expect(RetryAfter.milliseconds(from: "soon", now: now) == nil)
        #expect(RetryAfter.milliseconds(from: "-5", now: now) == nil)
        #expect(RetryAfter.milliseconds(from: "1.5", now: now) == nil)
    }
}

struct RetryLoopTests {
    @Test func zeroBasedAttemptsAndPolicyDelays() async throws {
        let policy = DefaultRetryPolicy(maximumRetries: 3, baseDelayMs: 100)
        let clock = ImmediateRetryClock(now: Date(timeIntervalSince1970: 1_764_489_600))
        var attempts: [Int] = []
        let result: String = try await RetryLoop(policy: policy, clock: clock).run { attempt in
            attempts.append(attempt)
            return attempt < 3 ? .retryable(statusCode: 500, retryAfter: nil, final: "failed") : .finished("ok")
        }
        #expect(result == "ok")
        #expect(attempts == [0, 1, 2, 3])
        #expect(clock.sleeps == [100, 200, 400])
    }

    @Test func policyRefusalReturnsTheFinalOutcome() async throws {
        let clock = ImmediateRetryClock(now: Date(timeIntervalSince1970: 1_764_489_600))
        var calls = 0
        let result: String = try await RetryLoop(policy: DefaultRetryPolicy(), clock: clock).run { _ in
            calls += 1
            return .retryable(statusCode: 400, retryAfter: nil, final: "bad request")
        }
        #expect(result == "bad request")
        #expect(calls == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func retryAfterRaisesTheDelayOnlyFor429And503() async throws {
        for (status, expected) in [(429, 7000), (503, 7000), (500, 2000)] {
            let clock = ImmediateRetryClock(now: Date(timeIntervalSince1970: 1_764_489_600))
            let _: String = try await RetryLoop(policy: DefaultRetryPolicy(), clock: clock).run { attempt in
                attempt == 0 ? .retryable(statusCode: status, retryAfter: "7", final: "x") : .finished("ok")
            }
            #expect(clock.sleeps == [expected], "status \(status)")
        }
        // A Retry-After shorter than the policy's delay does not shorten it.
        let clock = ImmediateRetryClock(now: Date(timeIntervalSince1970: 1_764_489_600))
        let _: String = try await RetryLoop(policy: DefaultRetryPolicy(), clock: clock).run { attempt in
            attempt == 0 ? .retryable(statusCode: 429, retryAfter: "1", final: "x") : .finished("ok")
        }
        #expect(clock.sleeps == [2000])
    }

    /// A policy that asks for the policy's attempt numbers, to check what it is given.
    final class RecordingPolicy: NSObject, RetryPolicy, @unchecked Sendable {
        var calls: [(Int, Int?)] = []
        func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool {
            calls.append((attempt, httpStatusCode?.intValue))
            return attempt < 2
        }
        func retryDelayMs(attempt: Int) -> Int { -5 }
    }

    @Test func thePolicySeesZeroBasedRetriesAndNilForNetworkErrors() async throws {
        let policy = RecordingPolicy()
        let clock = ImmediateRetryClock(now: Date(timeIntervalSince1970: 1_764_489_600))
        let _: String = try await RetryLoop(policy: policy, clock: clock).run { _ in
            .retryable(statusCode: nil, retryAfter: nil, final: "network down")
        }
        #expect(policy.calls.map(\.0) == [0, 1, 2])
        #expect(policy.calls.allSatisfy { $0.1 == nil })
        #expect(clock.sleeps == [0, 0])  // negative delays are treated as none
    }

    @Test func cancellingDuringTheBackOffEndsTheLoop() async throws {
        let (entered, continuation) = AsyncStream<Void>.makeStream()
        let loop = RetryLoop(policy: DefaultRetryPolicy(), clock: BlockingClock(entered: continuation))
        let task = Task {
            try await loop.run { _ in RetryLoop.Outcome<String>.retryable(statusCode: 503, retryAfter: nil, final: "x") }
        }
        var iterator = entered.makeAsyncIterator()
        _ = await iterator.next()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
