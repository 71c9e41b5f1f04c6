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
/// Cancelling the calling task, or the attempt's time limit, ends the call at once. On
/// Apple platforms the HTTP request is cancelled too; on Linux it is left to finish in
/// the session and its answer is dropped, because FoundationNetworking can stop the
/// process when a task is cancelled as it completes (the session ends such a request at
/// its own request timeout, 60 s without data unless the app's session says otherwise).
/// Failures without an HTTP response become ``TransportError``s. The session made by ``init()`` is ephemeral: no
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

        let pending = PendingRequest()
        // URLSession on Linux applies the session's timeout rather than the request's,
        // so the per-attempt timeout is enforced here, the same way on every platform.
        // A dispatch timer, cancelled when the request ends: a task sleeping in
        // `Task.sleep` would stay in memory until its deadline even when cancelled (about
        // 0.9 KB a request for the default 30 s, measured), so memory would grow with
        // the request rate.
        let timer = limit.map { seconds in
            let timer = DispatchSource.makeTimerSource(queue: Self.timerQueue)
            timer.schedule(deadline: .now() + seconds)
            timer.setEventHandler { pending.end(with: TransportError.timedOut) }
            timer.resume()
            return timer
        }
        defer { timer?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TransportResponse, Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    pending.complete(with: Self.outcome(data: data, response: response, error: error))
                }
                pending.start(task, continuation: continuation)
            }
        } onCancel: {
            pending.end(with: CancellationError())
        }
    }

    /// The attempt's time limit in seconds, at most ``longestTimeout``; nil for no limit.
    /// Zero, negative and NaN become 0, so the attempt ends at once.
    /// Where the attempts' timers fire.
    private static let timerQueue = DispatchQueue(label: "ZeroPiiTransport.URLSessionTransport.timers")

    static func timeLimit(_ timeout: TimeInterval) -> TimeInterval? {
        guard timeout > 0 else { return 0 }
        return timeout <= longestTimeout ? timeout : nil
    }

    /// What the session's answer means. A `cancelled` error reaches a caller only when
    /// the session itself cancelled the task (the app invalidated it): when this transport
    /// ends a request first, the session's answer comes too late to be delivered.
    private static func outcome(data: Data?, response: URLResponse?, error: Error?) -> Result<TransportResponse, Error> {
        if let http = response as? HTTPURLResponse, error == nil {
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                headers[String(describing: name)] = String(describing: value)
            }
            return .success(TransportResponse(statusCode: http.statusCode, headers: headers, body: data ?? Data()))
        }
        guard let urlError = error as? URLError else {
            return .failure(TransportError.connectionFailed(.noHTTPResponse))
        }
        switch urlError.code {
        case .cancelled: return .failure(TransportError.cancelled)
        case .timedOut: return .failure(TransportError.timedOut)
        default: return .failure(TransportError.connectionFailed(detail: "URLError \(urlError.code.rawValue)"))
        }
    }
}

/// One request's continuation and data task, shared by the session's completion
/// handler, the caller's cancellation handler and the attempt's timer, which may come in
/// any order and from any thread: the first to come ends the request, once.
///
/// On Linux a request ended early is left to finish in the session rather than
/// cancelled: FoundationNetworking's `URLSessionTask.cancel()` races with the task's
/// completion and stops the process ("Trying to access a behaviour for a task that in
/// not in the registry") when the two meet, which a loop of cancellations against a
/// loopback server hits within seconds. The abandoned request ends when the server
/// answers or at the session's own request timeout (60 s without data by default), and
/// its answer is dropped. Apple's URLSession cancels safely, so there it is cancelled.
///
/// The data task is dropped when the request ends, so the completion handler, which
/// holds this object, and the task do not keep each other alive.
private final class PendingRequest: @unchecked Sendable {
    // Sendable: the data task and the continuation are reached only inside `state`'s
    // lock; `URLSessionDataTask` is not Sendable on every platform, so the compiler
    // cannot see that.
    private struct State {
        var task: URLSessionDataTask?
        var continuation: CheckedContinuation<TransportResponse, Error>?
        /// Why the request ended before it started (cancelled or timed out first).
        var endedEarly: Error?
        var ended = false
    }

    private let state = Locked(State())

    /// Resumes `task`, unless the request already ended, in which case `continuation`
    /// gets that ending at once and the task is never sent.
    func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<TransportResponse, Error>) {
        let endedEarly: Error?? = state.withLock { state in
            guard !state.ended else { return .some(state.endedEarly) }
            state.task = task
            state.continuation = continuation
            return .none
        }
        switch endedEarly {
        case .none: task.resume()
        case .some(let error): continuation.resume(throwing: error ?? CancellationError())
        }
    }

    /// The session's answer, delivered unless the request ended another way first.
    func complete(with outcome: Result<TransportResponse, Error>) {
        take()?.continuation?.resume(with: outcome)
    }

    /// Ends the request with `error` (a time limit or the caller's cancellation) unless
    /// it ended already.
    func end(with error: Error) {
        let taken: (continuation: CheckedContinuation<TransportResponse, Error>?, task: URLSessionDataTask?)? = state.withLock { state in
            guard !state.ended else { return nil }
            if state.continuation == nil { state.endedEarly = error }
            return Self.takeAll(&state)
        }
        guard let taken else { return }
        taken.continuation?.resume(throwing: error)
        #if !canImport(FoundationNetworking)
        taken.task?.cancel()
        #endif
    }

    private func take() -> (continuation: CheckedContinuation<TransportResponse, Error>?, task: URLSessionDataTask?)? {
        state.withLock { state in state.ended ? nil : Self.takeAll(&state) }
    }

    private static func takeAll(
        _ state: inout State
    ) -> (continuation: CheckedContinuation<TransportResponse, Error>?, task: URLSessionDataTask?) {
        state.ended = true
        defer {
            state.continuation = nil
            state.task = nil
        }
        return (state.continuation, state.task)
    }
}
