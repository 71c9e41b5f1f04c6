import Dispatch
import Foundation
import ZeroPiiLocking
import ZeroPiiModels
import ZeroPiiSDK

/// Many 1-value calls started at once, half through the callback API and half through
/// the async API, each timed from the moment it was made until its result: what a time
/// limit promises a caller. Used by part (c) of the transport benchmark and by the tests'
/// `transport-child NAME limits` run.
enum ConcurrentCallTimes {
    /// One call's end: seconds from the call until its result, and the result's error kind.
    struct End: Sendable {
        let seconds: Double
        let errorKind: ZeroPiiErrorKind
    }

    /// Makes `calls` calls at once (at least 2) and returns their ends, sorted by time.
    static func run(_ sdk: ZeroPiiSDK, calls: Int) async -> [End] {
        precondition(calls >= 2, "half of the calls go through each API")
        let ends = Locked<[End]>([])
        @Sendable func record(since start: UInt64, _ kind: ZeroPiiErrorKind) {
            let end = End(seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, errorKind: kind)
            ends.withLock { $0.append(end) }
        }
        let callbackCalls = calls / 2
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                let tally = CompletionTally(expected: callbackCalls)
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    tally.whenDone { continuation.resume() }
                    for index in 0..<callbackCalls {
                        let start = DispatchTime.now().uptimeNanoseconds
                        sdk.tokenizeString("callback-\(index)@example.com") { result in
                            record(since: start, result.errorKind)
                            tally.record(success: result.isSuccess)
                        }
                    }
                }
            }
            for index in callbackCalls..<calls {
                group.addTask {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let result = await sdk.tokenize("async-\(index)@example.com")
                    record(since: start, result.errorKind)
                }
            }
        }
        return ends.withLock { $0 }.sorted { $0.seconds < $1.seconds }
    }
}
