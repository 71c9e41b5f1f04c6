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

    static func run(rounds: Int = 3) {
        print("v1 envelope seal + open, both keys derived (ops/s and µs per op, best of \(rounds) alternating rounds)")
        print(pad("payload", 10) + pad("old ops/s", 12) + pad("old µs/op", 12) + pad("new ops/s", 12) + pad("new µs/op", 12) + "speed-up")
        for size in sizes {
            let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            precondition(legacyRoundTrip(payload) == payload && currentRoundTrip(payload) == payload, "round trip failed")
            var old = 0.0
            var new = 0.0
            for _ in 0..<rounds {
                old = max(old, BenchmarkClock.runsPerSecond(seconds: 0.3) { blackHole(legacyRoundTrip(payload)) })
                new = max(new, BenchmarkClock.runsPerSecond(seconds: 0.3) { blackHole(currentRoundTrip(payload)) })
            }
            print(
                pad("\(size) B", 10) + pad(String(format: "%.0f", old), 12) + pad(String(format: "%.2f", 1e6 / old), 12)
                    + pad(String(format: "%.0f", new), 12) + pad(String(format: "%.2f", 1e6 / new), 12)
                    + String(format: "%.2f×", new / old)
            )
        }
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
