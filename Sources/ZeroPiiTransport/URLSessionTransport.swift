import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPTransport`` over `URLSession`, on Apple platforms and on Linux.
///
/// Cancelling the calling task cancels the HTTP request. Failures without an HTTP
/// response become ``TransportError``s. The session is ephemeral: no cookies, no
/// cache, no credentials stored on disk.
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    // Sendable: `session` is immutable and URLSession is thread-safe.
    private let session: URLSession

    /// A transport with its own ephemeral session.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    /// A transport over a session the app configured (proxies, pinning delegates, ...).
    public init(session: URLSession) {
        self.session = session
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` with `URLSession`, giving up after `request.timeout` seconds.
    ///
    /// - Throws: ``TransportError/timedOut``, `CancellationError` when the calling task
    ///   was cancelled, or a ``TransportError`` of kind `connectionFailed` for any other
    ///   failure to get an HTTP response.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body

        let pending = PendingTask()
        // URLSession on Linux applies the session's timeout rather than the request's,
        // so the per-attempt timeout is enforced here, the same way on every platform.
        let timer = Task {
            try await Task.sleep(nanoseconds: UInt64(max(0, request.timeout) * 1e9))
            pending.cancel(timedOut: true)
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    continuation.resume(with: Self.outcome(data: data, response: response, error: error, timedOut: pending.didTimeOut))
                }
                pending.start(task)
            }
        } onCancel: {
            pending.cancel(timedOut: false)
        }
    }

    private static func outcome(data: Data?, response: URLResponse?, error: Error?, timedOut: Bool) -> Result<HTTPResponse, Error> {
        if let http = response as? HTTPURLResponse, error == nil {
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                headers[String(describing: name)] = String(describing: value)
            }
            return .success(HTTPResponse(statusCode: http.statusCode, headers: headers, body: data ?? Data()))
        }
        guard let urlError = error as? URLError else {
            return .failure(TransportError.connectionFailed(detail: "no HTTP response"))
        }
        switch urlError.code {
        case .cancelled: return .failure(timedOut ? TransportError.timedOut : CancellationError())
        case .timedOut: return .failure(TransportError.timedOut)
        default: return .failure(TransportError.connectionFailed(detail: "URLError \(urlError.code.rawValue)"))
        }
    }
}

/// The data task of one request, shared with the cancellation handler, which may run
/// before the task exists, while it runs, or after it finished.
private final class PendingTask: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var isCancelled = false
    private var timedOut = false

    /// Whether the cancellation came from the attempt's timeout rather than the caller.
    var didTimeOut: Bool { lock.withLock { timedOut } }

    func start(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = isCancelled
        lock.unlock()
        if cancelled {
            task.cancel()
        }
        task.resume()
    }

    func cancel(timedOut: Bool) {
        lock.lock()
        if !isCancelled {
            isCancelled = true
            self.timedOut = timedOut
        }
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}
