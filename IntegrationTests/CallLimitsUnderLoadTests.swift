import Foundation
import Testing
import ZeroPiiLocking
import ZeroPiiMockServer
import ZeroPiiSDK
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SDK under many concurrent calls against the mock server on loopback, with each
/// transport: every call ends by its `callTimeout` plus the documented margin, and the
/// server never sees more connections than `maximumConcurrentRequests`. Serialized and
/// outside the ThreadSanitizer passes: the figures are about time and connections, and
/// each test keeps both cores busy.
@Suite(.serialized, .skippedUnderThreadSanitizer)
struct CallLimitsUnderLoadTests {
    enum Transport: String, CaseIterable, CustomTestStringConvertible {
        /// libcurl on Linux, URLSession elsewhere.
        case platformDefault
        case urlSession

        var testDescription: String { rawValue }

        /// The transport's name for `zeropii-benchmarks transport-child`.
        var childName: String {
            #if os(Linux)
            return self == .platformDefault ? "libcurl" : "URLSession"
            #else
            return "URLSession"
            #endif
        }

        func make() -> (any HTTPTransport)? {
            switch self {
            case .platformDefault: return nil
            case .urlSession: return URLSessionTransport()
            }
        }
    }

    /// How late a result may be, beyond its call's limit: a debug build in a child process,
    /// sharing 2 cores with the hundreds of tests that run beside it. The server answers
    /// after 60 s, so a call that waited for the answer instead of its limit still fails
    /// the test. The release figure on an idle machine is the benchmark's
    /// (`zeropii-benchmarks transport`, Docs/Performance.md).
    static let margin: TimeInterval = 10

    private static func makeSDK(
        _ transport: Transport, server: MockTokenizationServer, callTimeout: TimeInterval
    ) -> ZeroPiiSDK {
        var configuration = ZeroPiiConfiguration()
        configuration.transport = transport.make()
        configuration.callTimeout = callTimeout
        configuration.requestTimeout = 30
        configuration.callbackQueue = DispatchQueue(label: "load.callbacks", attributes: .concurrent)
        return ZeroPiiSDK.initialize(
            tokenProvider: ServerTokenProvider(server: server), apiUrl: server.baseURL.absoluteString, logLevel: .off,
            retryPolicy: DefaultRetryPolicy(), configuration: configuration)
    }

    /// Makes `count` concurrent `tokenizeString` calls (the callback API) and returns once
    /// every callback has come; each result goes to `record` first.
    private static func callbackCalls(
        _ count: Int, on sdk: ZeroPiiSDK, value: (Int) -> String, record: @escaping @Sendable (TokenizeResult) -> Void
    ) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let remaining = Locked(count)
            for index in 0..<count {
                sdk.tokenizeString(value(index)) { result in
                    record(result)
                    if remaining.withLock({
                        $0 -= 1
                        return $0
                    }) == 0 {
                        continuation.resume()
                    }
                }
            }
        }
    }

    /// 1,000 calls, half through the async API and half through callbacks, with a 1 s
    /// limit over a server that answers after 60 s: each ends as a timeout, no sooner than
    /// the limit and by the limit plus the margin after it was made.
    ///
    /// The calls run in a process of their own (``TransportChild``, `limits`). A call's
    /// limit is kept by a task on Swift's cooperative pool, and its result comes back
    /// through it; in this process, the full suite's synchronous tests hold that pool's
    /// threads for seconds, and results came up to 10 s late. A process of its own shares
    /// the cores but not the pool.
    @Test(arguments: Transport.allCases)
    func aThousandCallsOverASlowServerEndByTheirLimit(transport: Transport) async throws {
        let server = try TransportChild.makeServer()
        defer { server.stop() }
        let figures = try await TransportChild.run(transport.childName, "limits", server: server, count: 1_000)
        #expect(figures["calls"] == 1_000, "\(figures)")
        #expect(figures["timeouts"] == 1_000, "\(figures)")
        let earliest = try #require(figures["first"])
        let latest = try #require(figures["last"])
        #expect(earliest >= 0.99, "\(earliest)")
        #expect(latest <= 1 + Self.margin, "\(latest)")
    }

    /// 10,000 callback calls at once, coalescing off: all succeed, and the server never
    /// holds more connections than the bound of 8 requests in flight.
    @Test(arguments: Transport.allCases)
    func tenThousandConcurrentCallsOpenNoMoreConnectionsThanTheBound(transport: Transport) async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess { try await tenThousandConcurrentCalls(transport) }
    }

    private func tenThousandConcurrentCalls(_ transport: Transport) async throws {
        let server = try MockTokenizationServer()
        defer { server.stop() }
        let sdk = Self.makeSDK(transport, server: server, callTimeout: 600)
        let succeeded = Locked(0)
        await Self.callbackCalls(10_000, on: sdk, value: { "value-\($0)@example.com" }) { result in
            if result.isSuccess { succeeded.withLock { $0 += 1 } }
        }
        #expect(succeeded.withLock { $0 } == 10_000)
        #expect(server.statistics.connections.peakOpenConnections <= 8, "\(server.statistics.connections.peakOpenConnections)")
        #expect(server.statistics.connections.peakOpenConnections >= 1)
    }
}
