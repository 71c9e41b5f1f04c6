import Foundation
import ZeroPiiCrypto

/// The v1 envelope as one side of a request uses it (PROTOCOL.md, section 5): a fresh
/// salt, both keys derived from the access token (`K_req` and `K_resp`), one message
/// sealed and one opened, at the payload sizes the SDK meets: a single short value
/// (30 B), a typical single request (200 B) and a large batch (50 KB).
///
/// The same run times the code before the lean request path (the frozen copy under
/// `LegacyCrypto/`) and the current ZeroPiiCrypto, alternating between them so that
/// a change in the machine's speed affects both alike.
enum EnvelopeBenchmark {
    static let sizes = [30, 200, 50_000]
    static let accessToken = "eyJhbGciOiJIUzI1NiJ9.an-access-token-of-a-typical-length.c2lnbmF0dXJl"

    /// Prints, per size, the median CPU time per operation of the old and the new code
    /// over `rounds` pairs of 50 ms rounds (each pair one old and one new round back to
    /// back, the order swapped from one pair to the next so that a machine speeding up
    /// or slowing down favours neither), the fastest round of each, and the speed-up:
    /// the median of the pairs' own ratios, with the middle half of them. A
    /// pair's two rounds run within a tenth of a second of each other, so a host whose
    /// speed changes from minute to minute moves both alike; the ratio of the two
    /// medians, which can come from different minutes, is printed too.
    static func run(sizes: [Int], rounds: Int = 31) {
        print("v1 envelope per request: fresh salt, K_req and K_resp derived, seal + open (CPU µs per operation, thread CPU time)")
        print("\(rounds) pairs of 50 ms rounds, old and new back to back in alternating order; speed-up = median of the pairs' ratios [middle half]")
        print(
            pad("payload", 10) + pad("old median", 12) + pad("old fastest", 13) + pad("new median", 12) + pad("new fastest", 13)
                + pad("medians", 9) + "speed-up"
        )
        for size in sizes {
            let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            precondition(legacyRoundTrip(payload) == payload && currentRoundTrip(payload) == payload, "round trip failed")
            var old: [Double] = []
            var new: [Double] = []
            var ratios: [Double] = []
            let measureOld = { BenchmarkClock.cpuMicrosecondsPerRun(seconds: 0.05) { blackHole(legacyRoundTrip(payload)) } }
            let measureNew = { BenchmarkClock.cpuMicrosecondsPerRun(seconds: 0.05) { blackHole(currentRoundTrip(payload)) } }
            for pair in 0..<rounds {
                let (oldTime, newTime): (Double, Double)
                if pair % 2 == 0 {
                    oldTime = measureOld()
                    newTime = measureNew()
                } else {
                    newTime = measureNew()
                    oldTime = measureOld()
                }
                old.append(oldTime)
                new.append(newTime)
                ratios.append(oldTime / newTime)
            }
            let oldMedian = median(old)
            let newMedian = median(new)
            let sortedRatios = ratios.sorted()
            print(
                pad("\(size) B", 10) + pad(String(format: "%.2f", oldMedian), 12) + pad(String(format: "%.2f", old.min()!), 13)
                    + pad(String(format: "%.2f", newMedian), 12) + pad(String(format: "%.2f", new.min()!), 13)
                    + pad(String(format: "%.2f×", oldMedian / newMedian), 9)
                    + String(
                        format: "%.2f× [%.2f–%.2f]", median(ratios), sortedRatios[rounds / 4], sortedRatios[rounds - 1 - rounds / 4]
                    )
            )
        }
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Today's code: what the SDK does for a request body (or the server for a response).
    static func currentRoundTrip(_ payload: Data) -> Data {
        let envelope = PayloadEnvelope(accessToken: accessToken, operation: "tokenize", requestID: requestID, timestamp: 1_700_000_000)
        let sealed = try! envelope.sealRequest(payload)
        return try! envelope.openRequest(sealed)
    }

    /// The same work through the frozen copy of the code before issue 18.
    static func legacyRoundTrip(_ payload: Data) -> Data {
        let envelope = LegacyPayloadEnvelope(
            accessToken: accessToken, operation: "tokenize", requestID: requestID, timestamp: 1_700_000_000
        )
        let sealed = try! envelope.sealRequest(payload)
        return try! envelope.openRequest(sealed)
    }

    private static let requestID = "0b6f8f5e-3c1d-4e7a-9d2b-5a4c3b2a1f00"

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
