/// Sends one HTTP request and returns the response: the only thing the SDK needs from
/// the network.
///
/// An implementation returns every HTTP response, whatever its status; it throws only
/// when no response arrived (a ``TransportError``), or `CancellationError` when the
/// calling task was cancelled. ``URLSessionTransport`` is the production
/// implementation; the `ZeroPiiTestSupport` product has a closure-backed one for tests.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the server's response, whatever its status.
    ///
    /// - Throws: A ``TransportError`` when no HTTP response arrived.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
