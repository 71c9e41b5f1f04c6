import Dispatch
import Foundation
import ZeroPiiCrypto
import ZeroPiiLocking
import ZeroPiiMockServer
import ZeroPiiModels
import ZeroPiiSDK
import ZeroPiiTestSupport
import ZeroPiiTransport
import ZeroPiiWire

/// What the SDK itself costs per request, and what coalescing changes:
///
/// - (a) client CPU per request, through the public API with payload encryption on, for
///   one value and for a 1,000-value batch: JSON, seal, Base64, the transport call, open,
///   decode, results. The answers come from a stand-in server inside the transport
///   (open the request, seal a prepared response); its CPU is measured on its own and
///   subtracted.
/// - (b) 1,000 concurrent `tokenizeString` calls against the mock server on loopback with
///   20 ms of added latency, coalescing off and on: HTTP requests made and wall time.
/// - (c) the v1 envelope per request at 30 B, 200 B and 50 KB (``EnvelopeBenchmark``).
enum SDKBenchmark {
    static func run() async {
        await clientCPU()
        print("")
        await concurrentCalls()
        print("")
        EnvelopeBenchmark.run(sizes: EnvelopeBenchmark.sizes)
    }

    // MARK: (a) client CPU

    static let batchValues = (0..<1000).map { $0 % 2 == 0 ? "user\($0)@example.com" : "+1 555 01\(String(format: "%04d", $0))" }

    /// Which rows of (a) to measure: `sdk-cpu single` profiles the 1-value request
    /// without the batch's AES-GCM filling the samples.
    enum ClientCPUParts: String {
        case both, single, batch
    }

    static func clientCPU(_ parts: ClientCPUParts = .both) async {
        let server = StandInServer(batchValues: batchValues)
        var configuration = ZeroPiiConfiguration()
        configuration.transport = ClosureTransport { request in server.answer(request) }
        let sdk = ZeroPiiSDK.initialize(
            tokenProvider: FixedTokenProvider(token: EnvelopeBenchmark.accessToken), apiUrl: "https://tokens.example.test",
            logLevel: .off, retryPolicy: DefaultRetryPolicy(), configuration: configuration
        )
        let singleWorks = await sdk.tokenize("alice@example.com").isSuccess
        precondition(singleWorks, "the stand-in server's single answer was refused")
        let batchWorks = await sdk.batchTokenize(batchValues).isSuccess
        precondition(batchWorks, "the stand-in server's batch answer was refused")

        print("(a) client CPU per request, payload encryption on, through ZeroPiiSDK's async API")
        print("    process CPU time of sequential calls minus the stand-in server's own (measured per request, thread CPU)")
        print("    median and fastest of 7 rounds")
        print("    " + pad("request", 22) + pad("client median", 15) + pad("client fastest", 16) + "server (subtracted)")
        if parts != .batch {
            let single = await rounds(7, calls: 2000, server: server) { _ = await sdk.tokenize("alice@example.com") }
            report("1 value", single, unit: 1)
        }
        if parts != .single {
            let batch = await rounds(7, calls: 40, server: server) { _ = await sdk.batchTokenize(batchValues) }
            report("1,000-value batch", batch, unit: 1000)
        }
    }

    private static func rounds(
        _ count: Int, calls: Int, server: StandInServer, _ body: () async -> Void
    ) async -> (client: [Double], server: [Double]) {
        for _ in 0..<(calls / 10) { await body() }
        var client: [Double] = []
        var standIn: [Double] = []
        for _ in 0..<count {
            let processStart = BenchmarkClock.processCPUSeconds()
            let serverStart = server.cpuSeconds
            for _ in 0..<calls { await body() }
            let serverSeconds = server.cpuSeconds - serverStart
            let total = BenchmarkClock.processCPUSeconds() - processStart
            client.append((total - serverSeconds) * 1e6 / Double(calls))
            standIn.append(serverSeconds * 1e6 / Double(calls))
        }
        return (client, standIn)
    }

    private static func report(_ label: String, _ figures: (client: [Double], server: [Double]), unit: Int) {
        let clientMedian = BenchmarkClock.median(figures.client)
        let perValue = unit > 1 ? String(format: " (%.2f µs per value)", clientMedian / Double(unit)) : ""
        print(
            "    " + pad(label, 22) + pad(format(clientMedian), 15) + pad(format(figures.client.min()!), 16)
                + format(BenchmarkClock.median(figures.server)) + perValue)
    }

    // MARK: (b) concurrent calls against the mock server

    private static func concurrentCalls() async {
        let calls = 1000
        print("(b) \(calls) concurrent tokenizeString calls (distinct values), mock server on 127.0.0.1 with 20 ms added latency")
        print("    the default transport (libcurl on Linux), payload encryption on; requests counted by the server")
        print("    " + pad("coalescing", 34) + pad("HTTP requests", 15) + pad("wall time", 12) + "succeeded")
        var walls: [Double] = []
        for coalescing in [nil, ZeroPiiConfiguration.Coalescing()] {
            let (requests, seconds, succeeded) = await concurrentRun(calls: calls, coalescing: coalescing)
            walls.append(seconds)
            let label = coalescing.map { "on (window \(Int($0.window * 1000)) ms, up to \($0.maximumBatchSize))" } ?? "off"
            print("    " + pad(label, 34) + pad("\(requests)", 15) + pad(String(format: "%.3f s", seconds), 12) + "\(succeeded)")
        }
        print(String(format: "    coalescing on finished %.1f× sooner", walls[0] / walls[1]))
    }

    private static func concurrentRun(
        calls: Int, coalescing: ZeroPiiConfiguration.Coalescing?
    ) async -> (requests: Int, seconds: Double, succeeded: Int) {
        let server = try! MockTokenizationServer()
        defer { server.stop() }
        var configuration = ZeroPiiConfiguration()
        configuration.coalescing = coalescing
        configuration.callbackQueue = DispatchQueue(label: "benchmark.callbacks")
        configuration.callTimeout = 600
        configuration.requestTimeout = 300
        let sdk = ZeroPiiSDK.initialize(
            tokenProvider: FixedTokenProvider(token: server.issueAccessToken()), apiUrl: server.baseURL.absoluteString,
            logLevel: .off, retryPolicy: DefaultRetryPolicy(), configuration: configuration
        )
        // The access token and a first connection, outside the figures.
        _ = await sdk.tokenize("warm-up")
        server.faults.setLatency(0.020)
        let before = requestCount(server)
        let tally = CompletionTally(expected: calls)
        let start = DispatchTime.now().uptimeNanoseconds
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            tally.whenDone { continuation.resume() }
            for index in 0..<calls {
                sdk.tokenizeString("concurrent-\(index)@example.com") { result in tally.record(success: result.isSuccess) }
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (requestCount(server) - before, seconds, tally.successes)
    }

    private static func requestCount(_ server: MockTokenizationServer) -> Int {
        server.statistics.count(endpoint: "tokenize") + server.statistics.count(endpoint: "tokenize/batch")
    }

    // MARK: Formatting

    private static func format(_ microseconds: Double) -> String {
        microseconds >= 1000 ? String(format: "%.3f ms", microseconds / 1000) : String(format: "%.1f µs", microseconds)
    }

}

/// Hands out one access token, at once, for as long as the benchmark runs.
final class FixedTokenProvider: NSObject, AccessTokenProvider, @unchecked Sendable {
    // Sendable: immutable.
    private let token: String

    init(token: String) { self.token = token }

    func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        completion(AccessTokenInfo(token: token, expiresInSeconds: 86_400), nil)
    }
}

/// The server side of (a), inside the transport: it opens each request (both keys
/// derived, as a server must) and seals a response prepared once, timing its own CPU
/// so the benchmark can subtract it.
private final class StandInServer: Sendable {
    private let spent = Locked(0.0)
    private let singleAnswer: Data
    private let batchAnswer: Data

    init(batchValues: [String]) {
        singleAnswer = try! JSONEncoder().encode(
            WireBodies.TokenizeResponse(token: "qzmfe@hxkwpqa.com", exists: true, newlyCreated: false, dataType: "string"))
        let items = batchValues.map {
            WireBodies.BatchTokenizeItem(originalValue: $0, token: String($0.reversed()), exists: true, newlyCreated: false, dataType: "string")
        }
        batchAnswer = try! JSONEncoder().encode(
            WireBodies.BatchTokenizeResponse(
                results: items,
                summary: WireBodies.BatchTokenizeSummary(processedCount: items.count, existingCount: items.count, newlyCreatedCount: 0)
            ))
    }

    /// Thread CPU seconds spent answering so far.
    var cpuSeconds: Double { spent.withLock { $0 } }

    func answer(_ request: TransportRequest) -> TransportResponse {
        // No suspension point below: the work runs on one thread, so its thread CPU
        // time is all of it.
        let start = BenchmarkClock.threadCPUSeconds()
        defer {
            let used = BenchmarkClock.threadCPUSeconds() - start
            spent.withLock { $0 += used }
        }
        let isBatch = request.url.path.hasSuffix("/tokenize/batch")
        let accessToken = String(request.header("Authorization")!.dropFirst("Bearer ".count))
        let wire = try! JSONDecoder().decode(WireBodies.EnvelopeRequest.self, from: request.body)
        let envelope = try! PayloadEnvelope(
            accessToken: accessToken, operation: isBatch ? "tokenize/batch" : "tokenize", requestID: wire.rid, timestamp: wire.ts,
            salt: Data(base64Encoded: wire.salt)!
        )
        _ = try! envelope.openRequest(SealedPayload(iv: Data(base64Encoded: wire.iv)!, ciphertext: Data(base64Encoded: wire.ct)!))
        let sealed = try! envelope.sealResponse(isBatch ? batchAnswer : singleAnswer)
        // Written as the mock server writes it (`/` unescaped, section 5's key order), so the
        // client reads the bytes a server sends.
        let body = WireBodies.EnvelopeResponse.wireJSON(
            version: PayloadEnvelope.version, requestID: wire.rid, iv: sealed.iv, ciphertext: sealed.ciphertext)
        return TransportResponse(
            statusCode: 200, headers: ["X-ZeroPii-Encryption": PayloadEnvelope.headerValue, "Content-Type": "application/json"], body: body)
    }
}

/// Counts callbacks and runs a closure once the last one arrived.
final class CompletionTally: Sendable {
    private struct State {
        var remaining: Int
        var succeeded = 0
        var done: (@Sendable () -> Void)?
    }

    private let state: Locked<State>

    init(expected: Int) { state = Locked(State(remaining: expected)) }

    var successes: Int { state.withLock { $0.succeeded } }

    func whenDone(_ action: @escaping @Sendable () -> Void) { state.withLock { $0.done = action } }

    func record(success: Bool) {
        let action: (@Sendable () -> Void)? = state.withLock { state in
            state.remaining -= 1
            if success { state.succeeded += 1 }
            return state.remaining == 0 ? state.done : nil
        }
        action?()
    }
}
