#if canImport(ZeroPiiCurlShim)
import Foundation
internal import ZeroPiiCurlShim

#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// One libcurl multi handle and the thread that drives it, for one ``CurlTransport``.
///
/// The thread sleeps in `curl_multi_poll` until a socket is ready, one of libcurl's own
/// timers (a transfer's time limit, a connect timeout) is due, or `curl_multi_wakeup`
/// reports a new transfer, a cancellation or shutdown: it uses no CPU while it waits.
/// Every libcurl call on the multi handle and its easy handles is made on this thread;
/// other threads only queue work under the lock and wake it.
final class CurlMultiLoop: @unchecked Sendable {
    // Sendable: `multi` is used by other threads only for `curl_multi_wakeup`, which
    // libcurl allows from any thread (the handle lives until deinit, so it is valid for
    // anyone holding the loop); everything else below `queue` is touched only by the
    // loop's thread.

    private struct Queue {
        var started: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        var stopping = false
        /// Whether the loop's thread is (about to be) in `curl_multi_poll`: only then
        /// does new work need a `curl_multi_wakeup`, a system call and a thread switch.
        var sleeping = false
        /// Set by the loop's thread when it has ended every transfer and stopped.
        var finished = false
    }

    private let queue = Locked(Queue())
    private let multi: OpaquePointer
    private let options: CurlTransport.Options
    private let pinnedPublicKeys: String?

    /// The transfers libcurl holds, by easy handle.
    private var running: [OpaquePointer: CurlTransfer] = [:]
    /// Easy handles kept for reuse (reset, with their buffers and DNS cache entries).
    private var spareHandles: [OpaquePointer] = []
    /// Response bytes held by the running transfers together.
    private let responseBudget: CurlResponseBudget

    /// A multi handle with `options`' connection limits and its thread, started.
    init(options: CurlTransport.Options) throws {
        guard let multi = zp_curl_multi_init() else {
            throw CurlTransportSetupError(reason: "curl_multi_init failed")
        }
        self.multi = multi
        self.options = options
        let (budget, overflow) = options.maximumResponseBytes.multipliedReportingOverflow(by: CurlTransport.Options.responseBudgetFactor)
        responseBudget = CurlResponseBudget(limit: overflow ? Int.max : budget)
        pinnedPublicKeys = options.pinnedPublicKeys.isEmpty ? nil : options.pinnedPublicKeys.joined(separator: ";")
        let connections = options.maximumConnections
        _ = zp_curl_multi_setopt_long(multi, Int32(ZP_CURLMOPT_MAX_HOST_CONNECTIONS), connections)
        _ = zp_curl_multi_setopt_long(multi, Int32(ZP_CURLMOPT_MAX_TOTAL_CONNECTIONS), connections)
        _ = zp_curl_multi_setopt_long(multi, Int32(ZP_CURLMOPT_MAXCONNECTS), connections)
        let thread = Thread { [self] in run() }
        thread.name = "ZeroPii curl transport"
        Self.live.withLock { live in
            if !live.exitHookInstalled {
                // Registered after libcurl's global init, which set up OpenSSL and with it
                // OpenSSL's own exit handler, so this one runs first (exit handlers run in
                // reverse order).
                atexit { CurlMultiLoop.stopEveryLoopBeforeExit() }
                live.exitHookInstalled = true
            }
            live.loops[ObjectIdentifier(self)] = WeakLoop(loop: self)
        }
        thread.start()
    }

    deinit {
        _ = Self.live.withLock { $0.loops.removeValue(forKey: ObjectIdentifier(self)) }
        _ = zp_curl_multi_cleanup(multi)
    }

    // MARK: The process's exit

    private final class WeakLoop: Sendable {
        nonisolated(unsafe) weak var loop: CurlMultiLoop?
        init(loop: CurlMultiLoop) { self.loop = loop }
    }

    /// Every loop alive in the process, and whether the exit handler is installed.
    private static let live = Locked<(loops: [ObjectIdentifier: WeakLoop], exitHookInstalled: Bool)>(([:], false))

    /// The longest the process's exit waits for the loops' threads to end their transfers.
    static let exitWaitSeconds = 2.0

    /// Stops every loop and waits, up to ``exitWaitSeconds``, for each thread to end its
    /// transfers. Run by `exit` before OpenSSL's own exit handler: a process that exited
    /// while a loop's thread was in a TLS handshake crashed there (SIGSEGV or SIGBUS in a
    /// lock OpenSSL had freed), for example a command-line run stopped by a signal while
    /// its requests were connecting.
    static func stopEveryLoopBeforeExit() {
        let loops = live.withLock { $0.loops.values.compactMap(\.loop) }
        loops.forEach { $0.stop() }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(exitWaitSeconds * 1e9)
        for loop in loops {
            while !loop.queue.withLock({ $0.finished }), DispatchTime.now().uptimeNanoseconds < deadline { usleep(1_000) }
        }
    }

    /// Hands `transfer` to the loop. False when the loop has stopped.
    func start(_ transfer: CurlTransfer) -> Bool {
        let (accepted, wake): (Bool, Bool) = queue.withLock { queue in
            guard !queue.stopping else { return (false, false) }
            queue.started.append(transfer)
            return (true, Self.takeSleeping(&queue))
        }
        // Outside the lock: the woken thread's first step is to take it.
        if wake { _ = zp_curl_multi_wakeup(multi) }
        return accepted
    }

    /// Asks the loop to drop `transfer` (already ended by its caller) at once, which
    /// closes its connection if it was mid-transfer.
    func cancel(_ transfer: CurlTransfer) {
        let wake: Bool = queue.withLock { queue in
            guard !queue.finished else { return false }
            queue.cancelled.append(transfer)
            return Self.takeSleeping(&queue)
        }
        if wake { _ = zp_curl_multi_wakeup(multi) }
    }

    /// Ends every transfer as ``TransportError/cancelled``, closes the connections and
    /// ends the thread, without waiting for it.
    func stop() {
        let wake: Bool = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.stopping = true
            return Self.takeSleeping(&queue)
        }
        if wake { _ = zp_curl_multi_wakeup(multi) }
    }

    /// Whether the loop's thread sleeps and must be woken (once: the flag is cleared).
    private static func takeSleeping(_ queue: inout Queue) -> Bool {
        defer { queue.sleeping = false }
        return queue.sleeping
    }

    // MARK: The loop's thread

    private func run() {
        while true {
            let (started, cancelled, stopping) = queue.withLock { queue in
                queue.sleeping = false
                defer {
                    queue.started.removeAll(keepingCapacity: true)
                    queue.cancelled.removeAll(keepingCapacity: true)
                }
                return (queue.started, queue.cancelled, queue.stopping)
            }
            for transfer in cancelled { remove(transfer) }
            if stopping {
                shutDown(also: started)
                return
            }
            for transfer in started where !transfer.hasEnded { add(transfer) }
            var stillRunning: Int32 = 0
            _ = zp_curl_multi_perform(multi, &stillRunning)
            var result: Int32 = 0
            while let easy = zp_curl_multi_next_done(multi, &result) {
                finish(easy, result: result)
            }
            // Sleeps only when nothing was queued meanwhile (nobody woke it for that).
            // libcurl shortens the wait to its own next timer; the minute only bounds a
            // wait with nothing at all to do.
            let maySleep: Bool = queue.withLock { queue in
                guard queue.started.isEmpty && queue.cancelled.isEmpty && !queue.stopping else { return false }
                queue.sleeping = true
                return true
            }
            if maySleep {
                // `sleeping` stays set until the next turn takes the queue: a wakeup sent
                // meanwhile only makes one later poll return at once.
                _ = zp_curl_multi_poll(multi, 60_000)
            }
        }
    }

    private func add(_ transfer: CurlTransfer) {
        guard let easy = spareHandles.popLast() ?? zp_curl_easy_init() else {
            transfer.end(with: .failure(TransportError.connectionFailed(detail: "curl_easy_init failed")))
            return
        }
        if let failure = configure(easy, for: transfer) {
            release(easy, of: transfer)
            transfer.end(with: .failure(failure))
            return
        }
        let added = zp_curl_multi_add_handle(multi, easy)
        guard added == 0 else {
            release(easy, of: transfer)
            transfer.end(with: .failure(TransportError.connectionFailed(detail: "curl multi \(added)")))
            return
        }
        transfer.easy = easy
        transfer.budget = responseBudget
        running[easy] = transfer
    }

    /// Sets every option of one request; nil when libcurl took them all.
    private func configure(_ easy: OpaquePointer, for transfer: CurlTransfer) -> TransportError? {
        var failed: Int32 = 0
        func set(_ code: Int32) { if failed == 0 && code != 0 { failed = code } }
        let context = UnsafeMutableRawPointer(Unmanaged.passUnretained(transfer).toOpaque())
        set(zp_curl_easy_setopt_string(easy, Int32(ZP_CURLOPT_URL), transfer.url))
        // The transport runs on many threads: no signals (libcurl's SIGALRM-based DNS
        // timeout would be process-wide).
        set(zp_curl_easy_setopt_long(easy, Int32(ZP_CURLOPT_NOSIGNAL), 1))
        // http and https only, also for a URL an app built from outside input.
        if zp_curl_easy_setopt_string(easy, Int32(ZP_CURLOPT_PROTOCOLS_STR), "http,https") != 0 {
            set(zp_curl_easy_setopt_long(easy, Int32(ZP_CURLOPT_PROTOCOLS), Int(ZP_CURLPROTO_HTTP | ZP_CURLPROTO_HTTPS)))
        }
        set(zp_curl_easy_setopt_long(easy, Int32(ZP_CURLOPT_TIMEOUT_MS), transfer.timeoutMilliseconds))
        // This machine's own addresses never go through a proxy from the environment:
        // a proxy elsewhere cannot reach them, and the access token would leave the
        // machine on the way (an empty proxy turns the environment's off).
        if transfer.bypassesProxy {
            set(zp_curl_easy_setopt_string(easy, Int32(ZP_CURLOPT_PROXY), ""))
        }
        set(zp_curl_easy_setopt_callback(easy, Int32(ZP_CURLOPT_WRITEFUNCTION), curlReceiveBody))
        set(zp_curl_easy_setopt_pointer(easy, Int32(ZP_CURLOPT_WRITEDATA), context))
        set(zp_curl_easy_setopt_callback(easy, Int32(ZP_CURLOPT_HEADERFUNCTION), curlReceiveHeaderLine))
        set(zp_curl_easy_setopt_pointer(easy, Int32(ZP_CURLOPT_HEADERDATA), context))
        // A request is sent once. libcurl resends it on a fresh connection by itself when
        // a reused one dies before any answer, which would send the same sealed request
        // (same request id) a second time, past the retry policy, and turn a request the
        // server did process into a 409 replay. The callback refuses that resend; the
        // attempt fails, and the SDK's policy decides about a new one. libcurl before 7.80
        // has no such callback and keeps its resend.
        if zp_curl_easy_setopt_prerequest(easy, curlBeforeSending) == 0 {
            set(zp_curl_easy_setopt_pointer(easy, Int32(ZP_CURLOPT_PREREQDATA), context))
        }
        if zp_curl_features() & Int32(ZP_CURL_VERSION_HTTP2) != 0 {
            set(zp_curl_easy_setopt_long(easy, Int32(ZP_CURLOPT_HTTP_VERSION), Int(ZP_CURL_HTTP_VERSION_2TLS)))
        }
        if let file = options.trustedCertificateAuthorities {
            set(zp_curl_easy_setopt_string(easy, Int32(ZP_CURLOPT_CAINFO), file))
        }
        if let pinnedPublicKeys {
            set(zp_curl_easy_setopt_string(easy, Int32(ZP_CURLOPT_PINNEDPUBLICKEY), pinnedPublicKeys))
        }
        var list: OpaquePointer?
        for line in transfer.headerLines {
            guard let longer = zp_curl_slist_append(list, line) else {
                zp_curl_slist_free_all(list)
                return TransportError.connectionFailed(detail: "curl_slist_append failed")
            }
            list = longer
        }
        transfer.headerList = list
        set(zp_curl_easy_setopt_pointer(easy, Int32(ZP_CURLOPT_HTTPHEADER), list.map { UnsafeRawPointer($0) }))
        setMethodAndBody(easy, for: transfer, set)
        return failed == 0 ? nil : TransportError.connectionFailed(detail: "curl \(failed)")
    }

    private func setMethodAndBody(_ easy: OpaquePointer, for transfer: CurlTransfer, _ set: (Int32) -> Void) {
        let bodyCount = transfer.bodyCount
        switch transfer.method {
        case "GET" where bodyCount == 0:
            set(zp_curl_easy_setopt_long(easy, Int32(ZP_CURLOPT_HTTPGET), 1))
        case "HEAD":
            set(zp_curl_easy_setopt_long(easy, Int32(ZP_CURLOPT_NOBODY), 1))
        default:
            if transfer.method != "POST" {
                set(zp_curl_easy_setopt_string(easy, Int32(ZP_CURLOPT_CUSTOMREQUEST), transfer.method))
            }
            if transfer.method == "POST" || bodyCount > 0 {
                // POSTFIELDS with its size, even 0: without it libcurl would read the
                // body from standard input.
                set(zp_curl_easy_setopt_offset(easy, Int32(ZP_CURLOPT_POSTFIELDSIZE_LARGE), Int64(bodyCount)))
                set(zp_curl_easy_setopt_pointer(easy, Int32(ZP_CURLOPT_POSTFIELDS), transfer.body.baseAddress))
            }
        }
    }

    private func finish(_ easy: OpaquePointer, result: Int32) {
        guard let transfer = running.removeValue(forKey: easy) else { return }
        _ = zp_curl_multi_remove_handle(multi, easy)
        let outcome: Result<TransportResponse, Error>
        if result == 0 && !transfer.headersComplete {
            // The connection closed in the middle of the headers: no whole answer, as
            // retryable as one that never came.
            outcome = .failure(TransportError.connectionFailed(.incompleteResponse))
        } else if result == 0 {
            var status = 0
            _ = zp_curl_easy_getinfo_long(easy, Int32(ZP_CURLINFO_RESPONSE_CODE), &status)
            outcome = .success(transfer.response(statusCode: status))
        } else {
            outcome = .failure(
                transfer.unreadableAnswer.map { .connectionFailed($0.phrase) }
                    ?? Self.error(for: result, responseTooLarge: transfer.responseTooLarge, resendRefused: transfer.resendRefused))
        }
        release(easy, of: transfer)
        transfer.end(with: outcome)
    }

    /// Takes a transfer out of libcurl (ended already by its caller).
    private func remove(_ transfer: CurlTransfer) {
        guard let easy = transfer.easy, running.removeValue(forKey: easy) != nil else { return }
        _ = zp_curl_multi_remove_handle(multi, easy)
        release(easy, of: transfer)
    }

    /// Frees what the transfer gave libcurl and keeps the handle for the next one.
    private func release(_ easy: OpaquePointer, of transfer: CurlTransfer) {
        zp_curl_easy_reset(easy)
        transfer.releaseBudget()
        zp_curl_slist_free_all(transfer.headerList)
        transfer.headerList = nil
        transfer.easy = nil
        if spareHandles.count < min(options.maximumConnections, 64) {
            spareHandles.append(easy)
        } else {
            zp_curl_easy_cleanup(easy)
        }
    }

    private func shutDown(also started: [CurlTransfer]) {
        for transfer in started { transfer.end(with: .failure(TransportError.cancelled)) }
        for (easy, transfer) in running {
            _ = zp_curl_multi_remove_handle(multi, easy)
            release(easy, of: transfer)
            transfer.end(with: .failure(TransportError.cancelled))
        }
        running = [:]
        for easy in spareHandles { zp_curl_easy_cleanup(easy) }
        spareHandles = []
        // Nothing can have been queued since `started` was taken: `start` refuses new
        // transfers once `stopping` is set, and it was set then.
        queue.withLock { $0.finished = true }
    }

    /// The ``TransportError`` for a libcurl result code. The detail is the number alone:
    /// libcurl's error text can name the host and the path.
    static func error(for result: Int32, responseTooLarge: Bool, resendRefused: Bool) -> TransportError {
        switch result {
        case Int32(ZP_CURLE_OPERATION_TIMEDOUT): return .timedOut
        case Int32(ZP_CURLE_WRITE_ERROR) where responseTooLarge: return .connectionFailed(.responseTooLarge)
        // The resend libcurl wanted after the connection died: the server gave nothing.
        case Int32(ZP_CURLE_ABORTED_BY_CALLBACK) where resendRefused: return .connectionFailed(detail: "curl \(ZP_CURLE_GOT_NOTHING)")
        default: return .connectionFailed(detail: "curl \(result)")
        }
    }
}

/// libcurl's write callback: body bytes for the transfer in `context`.
private let curlReceiveBody: zp_curl_data_callback = { bytes, size, count, context in
    guard let bytes, let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveBody(bytes, count: size * count)
}

/// libcurl's pre-request callback: lets the transfer in `context` send its request once.
private let curlBeforeSending: zp_curl_prerequest_callback = { context, _, _, _, _ in
    guard let context else { return 1 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().maySend() ? 0 : 1
}

/// libcurl's header callback: one header line for the transfer in `context`.
private let curlReceiveHeaderLine: zp_curl_data_callback = { bytes, size, count, context in
    guard let bytes, let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveHeaderLine(bytes, count: size * count)
}
#endif
