import Foundation
import Testing
import ZeroPiiTestHelpers

/// Resident memory over many sequential calls through each transport, in a process of
/// its own (``TransportChild``, `soak`) against the mock server here: this process's
/// other suites would move its memory. 25,000 calls; the growth over the last 15,000 is
/// what a transport keeps per request.
@Suite(.serialized, .skippedUnderThreadSanitizer)
struct TransportSoakTests {
    /// libcurl keeps nothing per request: under 1 MB over 15,000 calls (0.07 KB a call,
    /// the rate of the benchmark's target, under 5 MB over 90,000).
    @Test func theLibcurlTransportKeepsNothingPerRequest() async throws {
        #if os(Linux)
        let server = try TransportChild.makeServer()
        defer { server.stop() }
        let figures = try await TransportChild.run("libcurl", "soak", server: server, count: 25_000)
        let (after, end) = (try #require(figures["rssAfter10k"]), try #require(figures["rssEnd"]))
        #expect(figures["soakFailures"] == 0)
        #expect(end - after < 1, "\(figures)")
        #endif
    }

    /// The benchmark's part (a) child answers each measurement it is sent with one round's
    /// figure (client CPU µs per call), which `zeropii-benchmarks transport` pairs with the
    /// other transport's.
    @Test func theBenchmarksRoundChildAnswersEveryMeasurement() async throws {
        let server = try TransportChild.makeServer()
        defer { server.stop() }
        let figures = try await TransportChild.run(
            "URLSession", "cpu-rounds", server: server, count: 0, input: "single\nbatch\nsmall\npost\nunknown\n")
        for measurement in ["single", "batch", "small", "post"] {
            let figure = try #require(figures[measurement], "\(figures)")
            #expect(figure > 0 && figure.isFinite, "\(measurement): \(figure)")
        }
        #expect(figures["unknown"].map { $0.isNaN } == true)
    }

    /// URLSession: what FoundationNetworking itself keeps, about 0.14 KB a request on
    /// Linux (a bare `URLSession` loop does the same), and nothing of this transport's:
    /// a timer task per request used to keep 0.7 KB, which this bound catches.
    @Test func theURLSessionTransportKeepsNoMoreThanURLSessionDoes() async throws {
        let server = try TransportChild.makeServer()
        defer { server.stop() }
        let figures = try await TransportChild.run("URLSession", "soak", server: server, count: 25_000)
        let (after, end) = (try #require(figures["rssAfter10k"]), try #require(figures["rssEnd"]))
        #expect(figures["soakFailures"] == 0)
        #expect(end - after < 4, "\(figures)")
    }
}
