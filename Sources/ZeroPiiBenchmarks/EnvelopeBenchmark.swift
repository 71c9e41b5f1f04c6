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
    /// over `rounds` alternating rounds (old, new, old, new, …) of 0.1 s each, and the
    /// fastest round of each, with the speed-up of the medians.
    static func run(sizes: [Int], rounds: Int = 9) {
        print("v1 envelope per request: fresh salt, K_req and K_resp derived, seal + open (CPU µs per operation, thread CPU time)")
        print("median and fastest of \(rounds) alternating rounds of 0.1 s; ops/s = 10^6 / median")
        print(
            pad("payload", 10) + pad("old median", 12) + pad("old fastest", 13) + pad("new median", 12) + pad("new fastest", 13)
                + pad("old ops/s", 11) + pad("new ops/s", 11) + "speed-up"
        )
        for size in sizes {
            let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            precondition(legacyRoundTrip(payload) == payload && currentRoundTrip(payload) == payload, "round trip failed")
            var old: [Double] = []
            var new: [Double] = []
            for _ in 0..<rounds {
                old.append(BenchmarkClock.cpuMicrosecondsPerRun(seconds: 0.1) { blackHole(legacyRoundTrip(payload)) })
                new.append(BenchmarkClock.cpuMicrosecondsPerRun(seconds: 0.1) { blackHole(currentRoundTrip(payload)) })
            }
            let oldMedian = median(old)
            let newMedian = median(new)
            print(
                pad("\(size) B", 10) + pad(String(format: "%.2f", oldMedian), 12) + pad(String(format: "%.2f", old.min()!), 13)
                    + pad(String(format: "%.2f", newMedian), 12) + pad(String(format: "%.2f", new.min()!), 13)
                    + pad(String(format: "%.0f", 1e6 / oldMedian), 11) + pad(String(format: "%.0f", 1e6 / newMedian), 11)
                    + String(format: "%.2f×", oldMedian / newMedian)
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
