import Foundation
import Testing
import ZeroPiiTestHelpers

/// An attempt longer than a minute: FoundationNetworking's `URLSession` ends every
/// request at its session's 60 s whatever the request asks, so this is the libcurl
/// transport's test (Linux's default). The call runs in a process of its own
/// (``TransportChild``, `long`), so it holds no other suite's shared SDK for its 65 s;
/// it stays out of the ThreadSanitizer passes.
@Suite(.skippedUnderThreadSanitizer)
struct LongRequestTimeoutTests {
    @Test func aNinetySecondAttemptGetsAnAnswerThatTakesSixtyFive() async throws {
        #if os(Linux)
        let server = try TransportChild.makeServer()
        defer { server.stop() }
        server.faults.setLatency(65)
        let figures = try await TransportChild.run("libcurl", "long", server: server, count: 1)
        #expect(figures["longSucceeded"] == 1, "\(figures)")
        let seconds = try #require(figures["longSeconds"])
        #expect(seconds >= 65 && seconds < 90, "\(seconds)")
        #endif
    }
}
