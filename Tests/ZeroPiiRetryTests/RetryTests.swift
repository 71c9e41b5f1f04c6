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

    /// RFC 9110's delta-seconds are ASCII digits; other characters that Unicode calls
    /// numbers make the header unreadable rather than a 60-second wait.
    @Test(arguments: ["½", "٣", "５", "Ⅻ", "3½", "１２"])
    func onlyASCIIDigitsCountAsSeconds(header: String) {
        #expect(RetryAfter.milliseconds(from: header, now: now) == nil)
    }

    @Test func anHTTPDateIsMeasuredAgainstTheGivenClock() {
        // The server's clock is an hour ahead of the device: its date of "in 10 s" is
        // 10 s from the corrected now, not an hour and 10 s from the device's.
        let serverNow = now.addingTimeInterval(3600)
        let header = InTestDates.imfFixdate(serverNow.addingTimeInterval(10))
        #expect(RetryAfter.milliseconds(from: header, now: serverNow) == 10_000)
    }
}

struct HTTPDateTests {
    let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func readsTheThreeFormsRFC9110Requires(text: String) {
        #expect(HTTPDate.date(from: text) == expected)
    }

    @Test func rejectsOtherText() {
        for text in ["", "yesterday", "1994-11-06T08:49:37Z", "5"] {
            #expect(HTTPDate.date(from: text) == nil, "\(text)")
        }
    }

    @Test func isSafeToUseFromManyTasksAtOnce() async {
        let dates = await withTaskGroup(of: Date?.self) { group in
            for index in 0..<400 {
                let text = ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"][index % 3]
                group.addTask { HTTPDate.date(from: text) }
            }
            return await group.reduce(into: [Date?]()) { $0.append($1) }
        }
        #expect(dates.count == 400 && dates.allSatisfy { $0 == expected })
    }
}

enum InTestDates {
    static func imfFixdate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
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

    @Test func aWaitThatWouldOutlastTheTimeLeftIsNotBegun() async throws {
        // (delay asked, Retry-After, time left) → whether the loop waits and retries.
        let cases: [(policyDelay: Int, retryAfter: String?, left: Int?, retries: Bool)] = [
            (2_000, nil, 1_999, false), (2_000, nil, 2_000, false), (2_000, nil, 2_001, true),
            (100, "30", 10_000, false), (100, "30", 30_001, true), (100, nil, 0, false), (Int.max, nil, nil, true),
        ]
        for (policyDelay, retryAfter, left, retries) in cases {
            final class FixedDelayPolicy: NSObject, RetryPolicy, @unchecked Sendable {
                let delay: Int
                init(_ delay: Int) { self.delay = delay }
                func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool { attempt < 1 }
                func retryDelayMs(attempt: Int) -> Int { delay }
            }
            let clock = ImmediateRetryClock(now: Date(timeIntervalSince1970: 1_764_489_600))
            var givenUp: [(Int?, Int)] = []
            var attempts = 0
            let result: String = try await RetryLoop(policy: FixedDelayPolicy(policyDelay), clock: clock).run(
                { attempt in
                    attempts += 1
                    return attempt == 0 ? .retryable(statusCode: 503, retryAfter: retryAfter, final: "server failed") : .finished("ok")
                },
                timeLeft: { left },
                wontWait: { givenUp.append(($0, $1)) }
            )
            let label = "delay \(policyDelay), Retry-After \(retryAfter ?? "none"), left \(left.map(String.init) ?? "no limit")"
            #expect(result == (retries ? "ok" : "server failed"), "\(label)")
            #expect(attempts == (retries ? 2 : 1), "\(label)")
            #expect(clock.sleeps.count == (retries ? 1 : 0), "\(label)")
            #expect(givenUp.map(\.0) == (retries ? [] : [503]), "\(label)")
            #expect(givenUp.map(\.1) == (retries ? [] : [retryAfter == nil ? policyDelay : 30_000]), "\(label)")
        }
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

    final class HugeDelayPolicy: NSObject, RetryPolicy, @unchecked Sendable {
        func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool { attempt < 1 }
        func retryDelayMs(attempt: Int) -> Int { Int.max }
    }

    @Test func anIntMaxDelayIsPassedOnWithoutTrapping() async throws {
        let clock = ImmediateRetryClock(now: Date(timeIntervalSince1970: 1_764_489_600))
        let result: String = try await RetryLoop(policy: HugeDelayPolicy(), clock: clock).run { attempt in
            attempt == 0 ? .retryable(statusCode: 429, retryAfter: "30", final: "x") : .finished("ok")
        }
        #expect(result == "ok")
        #expect(clock.sleeps == [Int.max])
    }

    @Test func theSystemClockWaitsAnyDelayWithoutTrapping() async throws {
        let clock = SystemRetryClock()
        try await clock.sleep(milliseconds: Int.min)
        try await clock.sleep(milliseconds: 0)
        for milliseconds in [Int.max, Int.max / 1_000_000 + 1, 86_400_001] {
            let sleeper = Task { try await clock.sleep(milliseconds: milliseconds) }
            sleeper.cancel()
            await #expect(throws: CancellationError.self) { try await sleeper.value }
        }
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
