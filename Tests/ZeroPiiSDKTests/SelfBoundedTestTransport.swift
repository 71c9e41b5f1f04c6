import Foundation
import ZeroPiiLocking
import ZeroPiiTransport

/// The in-test server behind a transport the SDK trusts to end its own sends, as it
/// trusts the libcurl transport: a request it is told to hold ends at the request's
/// `timeout` (``TransportError/timedOut``) or when the calling task is cancelled
/// (`CancellationError`), as libcurl's timer and cancellation end a transfer. It records
/// each request's timeout and `Authorization`.
final class SelfBoundedTestTransport: SelfBoundedTransport, Sendable {
    let server: InTestServer

    private struct State {
        var timeouts: [TimeInterval] = []
        var authorizations: [String?] = []
        var holds = 0
        var delays: [TimeInterval] = []
        var held = 0
    }

    private let state = Locked(State())

    init(server: InTestServer) {
        self.server = server
    }

    var timeouts: [TimeInterval] { state.withLock { $0.timeouts } }
    var authorizations: [String?] { state.withLock { $0.authorizations } }

    /// Forgets the requests seen so far.
    func forget() {
        state.withLock { state in
            state.timeouts = []
            state.authorizations = []
        }
    }

    /// The next `count` requests get no answer: each ends at its timeout or cancellation.
    func holdNext(_ count: Int) { state.withLock { $0.holds += count } }

    /// The next request is answered after `seconds` (before any hold is counted).
    func delayNext(_ seconds: TimeInterval) { state.withLock { $0.delays.append(seconds) } }

    /// Returns once `count` requests are being held (polling; the holds are what the
    /// test waits for, not a time).
    func waitForHeldRequests(_ count: Int) async throws {
        while state.withLock({ $0.held }) < count {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let (delay, holds): (TimeInterval?, Bool) = state.withLock { state in
            state.timeouts.append(request.timeout)
            state.authorizations.append(request.header("Authorization"))
            if !state.delays.isEmpty { return (state.delays.removeFirst(), false) }
            guard state.holds > 0 else { return (nil, false) }
            state.holds -= 1
            state.held += 1
            return (nil, true)
        }
        if let delay {
            try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
        }
        if holds {
            defer { state.withLock { $0.held -= 1 } }
            try await Task.sleep(nanoseconds: UInt64(request.timeout * 1e9))
            throw TransportError.timedOut
        }
        return server.handle(request)
    }
}
