import Foundation
import Testing
import ZeroPiiModels
import ZeroPiiTestHelpers
import ZeroPiiTestSupport
import ZeroPiiTransport

@testable import ZeroPiiSDK

/// A transport that holds every request until the test releases them, then lets
/// `server` answer: for looking at calls while their request is in flight.
final class HeldTransport: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var held: [CheckedContinuation<Void, Never>] = []
    private var released = false
    private var arrivals = 0
    let server: InTestServer

    init(server: InTestServer) { self.server = server }

    /// Requests that reached the transport so far.
    var arrived: Int { lock.withLock { arrivals } }

    var transport: ClosureTransport {
        ClosureTransport { [self] request in
            await self.hold()
            return self.server.handle(request)
        }
    }

    /// Lets every held request and every later one through.
    func release() {
        let waiting: [CheckedContinuation<Void, Never>] = lock.withLock {
            released = true
            defer { held = [] }
            return held
        }
        waiting.forEach { $0.resume() }
    }

    private func hold() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let pass: Bool = lock.withLock {
                arrivals += 1
                if released { return true }
                held.append(continuation)
                return false
            }
            if pass { continuation.resume() }
        }
    }
}

/// The values of a plaintext request: the batch's values, or the one value of a single.
func sentValues(_ request: TransportRequest) -> [String] {
    if request.url.path.hasSuffix("/tokenize/batch") {
        return (try? JSONDecoder().decode(WireBodies.BatchTokenizeRequest.self, from: request.body))?.values ?? []
    }
    return (try? JSONDecoder().decode(WireBodies.TokenizeRequest.self, from: request.body)).map { [$0.value] } ?? []
}

/// A client with coalescing on, its window on `clock`, talking plain JSON through
/// `transport` (default: `server`'s) so tests can read what was sent.
func makeCoalescingClient(
    server: InTestServer,
    transport: (any HTTPTransport)? = nil,
    clock: ManualTokenClock,
    window: TimeInterval = 0.005,
    maximumBatchSize: Int = 1000,
    wireProfile: ZeroPiiWireProfile = .plaintext,
    retryClock: ImmediateRetryClock = ImmediateRetryClock()
) -> TokenizationClient {
    makeClient(server: server, wireProfile: wireProfile, retryClock: retryClock) { configuration in
        configuration.coalescing = ZeroPiiConfiguration.Coalescing(window: window, maximumBatchSize: maximumBatchSize)
        configuration.tokenClock = clock
        if let transport { configuration.transport = transport }
    }
}

/// Runs `client.tokenize` for every value concurrently; calls `whileRunning` once all
/// have started, then returns the results in the order of `values`.
func tokenizeConcurrently(
    _ values: [String], with client: TokenizationClient, whileRunning: @Sendable () async throws -> Void = {}
) async throws -> [TokenizeResult] {
    try await withThrowingTaskGroup(of: (Int, TokenizeResult).self) { group in
        for (index, value) in values.enumerated() {
            group.addTask { (index, await client.tokenize(value)) }
        }
        try await whileRunning()
        var results = [TokenizeResult?](repeating: nil, count: values.count)
        for try await (index, result) in group { results[index] = result }
        return results.map { $0! }
    }
}

/// Moves `clock` on until the batch gathering in `client` has been sent. The window's
/// timer may not have started its sleep yet when the test gets here, so one step of
/// the window may not be enough; each step wakes the sleeps started before it.
func closeWindow(of client: TokenizationClient, on clock: ManualTokenClock, window: TimeInterval = 0.005) async throws {
    try await waitUntil("the window closed") {
        if client.coalescer!.gatheringCount == 0 { return true }
        clock.advance(by: window)
        return false
    }
}

/// The requests a test's own transport saw.
final class RequestRecorder: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var seen: [TransportRequest] = []

    var requests: [TransportRequest] { lock.withLock { seen } }

    func record(_ request: TransportRequest) { lock.withLock { seen.append(request) } }
}
