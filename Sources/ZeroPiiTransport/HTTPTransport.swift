/// Sends one HTTP request and returns the response: the only thing the SDK needs from
/// the network.
///
/// An implementation returns every HTTP response, whatever its status; it throws only
/// when no response arrived (a ``TransportError``), or `CancellationError` when the
/// calling task was cancelled. ``URLSessionTransport`` is the production
/// implementation; the `ZeroPiiTestSupport` product has a closure-backed one for tests.
///
/// An implementation waits for the network by suspending (`await`), never by blocking
/// its thread (a semaphore, a synchronous request): the SDK's async methods start a
/// call's work on the calling task's thread, so a blocking `send` holds that thread, and
/// the call cannot end at its time limit or on cancellation before `send` returns. (The
/// callback methods run the work in a task of its own and still call back on time.)
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the server's response, whatever its status.
    ///
    /// - Throws: A ``TransportError`` when no HTTP response arrived.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
