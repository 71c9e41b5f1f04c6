import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPTransport`` over `URLSession`, on Apple platforms and on Linux.
///
/// Cancelling the calling task cancels the HTTP request. Failures without an HTTP
/// response become ``TransportError``s. The session made by ``init()`` is ephemeral: no
/// cookies, no cache, no credentials stored on disk.
///
/// A transport invalidates only the session it created: a session passed to
/// ``init(session:)`` stays the app's, usable after the transport is gone (for example
/// after `ZeroPiiSDK.initialize` is called again).
///
/// Timeouts: `request.timeout` is in seconds; zero, negative or NaN ends the attempt at
/// once, and `.infinity` (or any value above ``longestTimeout``) means no limit of this
/// transport's own (the session's resource timeout still applies).
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    // Sendable: both stored properties are immutable and URLSession is thread-safe.
    private let session: URLSession
    private let ownsSession: Bool

    /// The longest per-attempt timeout this transport enforces, in seconds (30 days);
    /// anything longer, `.infinity` included, means no limit.
    public static let longestTimeout: TimeInterval = 30 * 24 * 3600

    /// A transport with its own ephemeral session.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
        ownsSession = true
    }

    /// A transport over a session the app configured (proxies, pinning delegates, ...).
    /// The session stays the app's: the transport never invalidates it.
    public init(session: URLSession) {
        self.session = session
        ownsSession = false
    }

    deinit {
        if ownsSession {
            session.finishTasksAndInvalidate()
        }
    }

    /// Sends `request` with `URLSession`, giving up after `request.timeout` seconds.
    ///
    /// - Throws: ``TransportError/timedOut``, `CancellationError` when the calling task
    ///   was cancelled, ``TransportError/cancelled`` when the session cancelled the request
    ///   on its own (for example because the app invalidated it), or a ``TransportError``
    ///   of kind `connectionFailed` for any other failure to get an HTTP response.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try Task.checkCancellation()
        let limit = Self.timeLimit(request.timeout)
        guard limit != 0 else { throw TransportError.timedOut }
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: limit ?? Self.longestTimeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body

        let pending = PendingTask()
        // URLSession on Linux applies the session's timeout rather than the request's,
        // so the per-attempt timeout is enforced here, the same way on every platform.
        let timer = limit.map { seconds in
            Task {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                pending.cancel(timedOut: true)
            }
        }
        defer { timer?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TransportResponse, Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    continuation.resume(with: Self.outcome(data: data, response: response, error: error, cancellation: pending.cancellation))
                }
                pending.start(task)
            }
        } onCancel: {
            pending.cancel(timedOut: false)
        }
    }

    /// The attempt's time limit in seconds, at most ``longestTimeout``; nil for no limit.
    /// Zero, negative and NaN become 0, so the attempt ends at once.
    static func timeLimit(_ timeout: TimeInterval) -> TimeInterval? {
        guard timeout > 0 else { return 0 }
        return timeout <= longestTimeout ? timeout : nil
    }

    private static func outcome(
        data: Data?, response: URLResponse?, error: Error?, cancellation: PendingTask.Cancellation?
    ) -> Result<TransportResponse, Error> {
        if let http = response as? HTTPURLResponse, error == nil {
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                headers[String(describing: name)] = String(describing: value)
            }
            return .success(TransportResponse(statusCode: http.statusCode, headers: headers, body: data ?? Data()))
        }
        guard let urlError = error as? URLError else {
            return .failure(TransportError.connectionFailed(detail: "no HTTP response"))
        }
        switch urlError.code {
        case .cancelled:
            switch cancellation {
            case .timedOut: return .failure(TransportError.timedOut)
            case .byCaller: return .failure(CancellationError())
            case nil: return .failure(TransportError.cancelled)
            }
        case .timedOut: return .failure(TransportError.timedOut)
        default: return .failure(TransportError.connectionFailed(detail: "URLError \(urlError.code.rawValue)"))
        }
    }
}

/// The data task of one request, shared with the cancellation handler, which may run
/// before the task exists, while it runs, or after it finished.
private final class PendingTask: @unchecked Sendable {
    // Sendable: the data task is reached only inside `state`'s lock; `URLSessionDataTask`
    // is not Sendable on every platform, so the compiler cannot see that.
    private struct State {
        var task: URLSessionDataTask?
        var cancelledBy: Cancellation?
    }

    private let state = Locked(State())

    /// Who cancelled the request, when this transport did.
    enum Cancellation {
        case timedOut
        case byCaller
    }

    /// Why this transport cancelled the request; nil when it did not (so a cancellation
    /// came from the session itself).
    var cancellation: Cancellation? { state.withLock { $0.cancelledBy } }

    func start(_ task: URLSessionDataTask) {
        let cancelled: Bool = state.withLock { state in
            state.task = task
            return state.cancelledBy != nil
        }
        if cancelled {
            task.cancel()
        }
        task.resume()
    }

    func cancel(timedOut: Bool) {
        let task: URLSessionDataTask? = state.withLock { state in
            if state.cancelledBy == nil {
                state.cancelledBy = timedOut ? .timedOut : .byCaller
            }
            return state.task
        }
        task?.cancel()
    }
}
