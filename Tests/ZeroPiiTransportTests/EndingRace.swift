import Foundation
import Testing
import ZeroPiiTransport

/// Calls cancelled, and calls with time limits, timed to meet the loopback server's
/// answer: every call must end exactly once, as the answer, a `CancellationError` or
/// `timedOut`, with no crash and none left waiting. Shared by both transports' tests.
enum EndingRace {
    struct Tally {
        var answered = 0
        var cancelled = 0
        var timedOut = 0
        var total: Int { answered + cancelled + timedOut }
    }

    /// `cancellations` calls cancelled from at once to 1.5 ms after they start (where a
    /// loopback answer arrives), then `limits` calls whose limit is `limit(round)`.
    static func run(
        _ transport: any HTTPTransport, url: URL, cancellations: Int, limits: Int, limit: (Int) -> TimeInterval
    ) async throws -> Tally {
        var tally = Tally()
        let request = TransportRequest(method: "POST", url: url, body: Data("v".utf8), timeout: 30)
        for round in 0..<cancellations {
            let call = Task { try await transport.send(request) }
            try await Task.sleep(nanoseconds: UInt64(round % 30) * 50_000)
            call.cancel()
            do {
                #expect(try await call.value.statusCode == 200)
                tally.answered += 1
            } catch is CancellationError {
                tally.cancelled += 1
            }
        }
        for round in 0..<limits {
            let limited = TransportRequest(method: "POST", url: url, body: Data("v".utf8), timeout: limit(round))
            do {
                #expect(try await transport.send(limited).statusCode == 200)
                tally.answered += 1
            } catch let error as TransportError where error == .timedOut {
                tally.timedOut += 1
            }
        }
        return tally
    }
}
