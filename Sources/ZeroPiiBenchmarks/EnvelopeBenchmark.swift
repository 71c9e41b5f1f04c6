import Foundation
import ZeroPiiCrypto

/// The v1 envelope as one side of a request uses it (Docs/Protocol.md): a fresh salt,
/// both keys derived from the access token (`K_req` and `K_resp`), one message sealed and
/// one opened, at the payload sizes the SDK meets: a single short value (30 B), a typical
/// single request (200 B) and a large batch (50 KB).
///
/// The reference is the same work through OpenSSL (`Scripts/envelope_reference.py`, Python's
/// `cryptography`), measured in the same run: pairs of our rounds and the reference's, back
/// to back and in alternating order, so that the host's speed, which changes from minute to
/// minute, moves both sides alike. The ratio of each pair is what the benchmark reports.
enum EnvelopeBenchmark {
    static let sizes = [30, 200, 50_000]
    static let accessToken = "eyJhbGciOiJIUzI1NiJ9.an-access-token-of-a-typical-length.c2lnbmF0dXJl"

    /// Prints, per size, the median CPU time of our round trip over `pairs` pairs (each
    /// pair: 0.2 s of ours in 50 ms rounds, and 0.2 s of the reference in its own process),
    /// the fastest of our rounds, the reference's median, and the median of the pairs'
    /// ratios (reference ÷ ours: above 1 means ours is faster) with their middle half.
    /// Without python3 and `cryptography`, only our figures.
    static func run(sizes: [Int], pairs: Int = 9) {
        let reference = OpenSSLEnvelopeReference()
        let referenceRuns = reference.isAvailable
        print("v1 envelope per request: fresh salt, K_req and K_resp derived, seal + open (CPU µs per round trip)")
        print(
            referenceRuns
                ? "\(pairs) pairs of ours and OpenSSL's (Scripts/envelope_reference.py), back to back in alternating order"
                : "OpenSSL reference unavailable (python3 with the cryptography package): our figures only")
        print(pad("payload", 10) + pad("ours median", 13) + pad("ours fastest", 14) + pad("OpenSSL median", 16) + "OpenSSL ÷ ours [middle half]")
        for size in sizes {
            let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            precondition(roundTrip(payload) == payload, "round trip failed")
            var ours: [Double] = []
            var theirs: [Double] = []
            var ratios: [Double] = []
            func measureOurs() -> Double {
                let rounds = (0..<4).map { _ in BenchmarkClock.cpuMicrosecondsPerRun(seconds: 0.05) { blackHole(roundTrip(payload)) } }
                ours += rounds
                return BenchmarkClock.median(rounds)
            }
            for pair in 0..<pairs {
                guard referenceRuns else {
                    _ = measureOurs()
                    continue
                }
                let (own, other): (Double, Double?)
                if pair % 2 == 0 {
                    own = measureOurs()
                    other = reference.microseconds(size: size, seconds: 0.2)
                } else {
                    other = reference.microseconds(size: size, seconds: 0.2)
                    own = measureOurs()
                }
                if let other {
                    theirs.append(other)
                    ratios.append(other / own)
                }
            }
            var row =
                pad("\(size) B", 10) + pad(String(format: "%.2f", BenchmarkClock.median(ours)), 13) + pad(String(format: "%.2f", ours.min()!), 14)
            if !ratios.isEmpty {
                let sorted = ratios.sorted()
                row += pad(String(format: "%.2f", BenchmarkClock.median(theirs)), 16)
                row += String(
                    format: "%.2f× [%.2f–%.2f]", BenchmarkClock.median(ratios), sorted[sorted.count / 4], sorted[sorted.count - 1 - sorted.count / 4])
            }
            print(row)
        }
    }

    /// What the SDK does for a request body (and the server for a response).
    static func roundTrip(_ payload: Data) -> Data {
        let envelope = PayloadEnvelope(accessToken: accessToken, operation: "tokenize", requestID: requestID, timestamp: 1_700_000_000)
        let sealed = try! envelope.sealRequest(payload)
        return try! envelope.openRequest(sealed)
    }

    private static let requestID = "0b6f8f5e-3c1d-4e7a-9d2b-5a4c3b2a1f00"

}
