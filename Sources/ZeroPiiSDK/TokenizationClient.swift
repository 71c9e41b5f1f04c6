import Foundation

// Each of these is a module of its own under Swift Package Manager; CocoaPods compiles
// every subspec into the one CleverTapZeroPiiSDK module, where they do not exist.
#if canImport(ZeroPiiAuth)
import ZeroPiiAuth
#endif
#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif
#if canImport(ZeroPiiWire)
import ZeroPiiWire
#endif
#if canImport(ZeroPiiRetry)
import ZeroPiiRetry
#endif
#if canImport(ZeroPiiTransport)
import ZeroPiiTransport
#endif

/// The request pipeline (Docs/Protocol.md, sections 2 to 6 and 9): JSON body, sealed by the
/// configured ``WireProfile`` for the access token of that attempt, transport, status
/// handling, opening and checking the response.
///
/// Every attempt is sealed afresh (new request id and key material). A profile may ask
/// for one more send of the same attempt in another form (the CleverTap profile's opt-in
/// plaintext after a 419); the pipeline does not know which profile it runs. A 401 drops that
/// token and replays once with a fresh one, outside the retry policy. A
/// `stale_request` 400 corrects the clock offset from the server's `Date` and replays
/// once. 429, 500, 502, 503, 504 and network failures go to the
/// ``/ZeroPiiRetry/RetryPolicy``. The whole call, token included, is bounded by the
/// configuration's `callTimeout` and ends at once when the caller's task is cancelled.
/// At most `maximumConcurrentRequests` requests are in flight (``RequestSlots``); an
/// attempt waits for a slot, a wait the call's time limit covers.
///
/// With a ``SelfBoundedTransport`` (the package's libcurl transport), the system clock, a
/// fresh cached token and a free slot, the first request is sent on the caller's own
/// task, with the call's time limit as its timeout: the transport's own timer and the
/// caller's cancellation end it, so no watchdog task is needed. Whatever that first
/// answer asks for next (a retry, a fresh token, a replay) goes on through
/// ``BoundedCall`` with the time that is left.
final class TokenizationClient: Sendable {
    static let sdkVersion = ZeroPiiSDK.version

    /// The endpoints' absolute URLs, resolved once rather than per call (nil without a base URL).
    private let tokenizeURL: URL?
    private let batchTokenizeURL: URL?
    private let transport: any HTTPTransport
    /// The bound on this client's requests in flight.
    let requestSlots: RequestSlots
    private let tokens: AccessTokenCache
    private let retryLoop: RetryLoop
    private let deviceClock: any RetryClock
    /// The device clock corrected by ``clockOffset``: the server's time, as far as known.
    private let serverClock: ServerCorrectedClock
    /// The time limits of this client's calls (and of its coalescer's callers), on the
    /// token clock.
    let callDeadlines: CallDeadlines
    private let callTimeLimit: TimeInterval?
    /// The clock of ``callDeadlines``, to tell how much of a call's time is left.
    private let callClock: any TokenClock
    /// Whether a call's first request may be sent on the caller's task (see the type's
    /// documentation).
    private let sendsFirstRequestDirectly: Bool
    /// The call's limit when it ends before the attempt's (`requestTimeout`): then it is
    /// the timeout of a request sent directly, and that request's time-out is the call's.
    private let callLimitBeforeRequestTimeout: TimeInterval?
    private let wireProfile: any WireProfile
    private let requestTimeout: TimeInterval
    private let logger: SDKLogger
    private let clockOffset = ClockOffset()
    /// Gathers single calls into batch requests when the configuration asks for it.
    let coalescer: TokenizeCoalescer?

    init(
        apiURL: String,
        tokenProvider: SharedTokenProvider,
        retryPolicy: RetryPolicy,
        configuration: ZeroPiiConfiguration,
        logger: SDKLogger
    ) {
        let baseURL = Self.baseURL(from: apiURL)
        tokenizeURL = baseURL.map { URL(string: TokenizationOperation.tokenize.path, relativeTo: $0)!.absoluteURL }
        batchTokenizeURL = baseURL.map { URL(string: TokenizationOperation.batchTokenize.path, relativeTo: $0)!.absoluteURL }
        if let transport = configuration.transport {
            self.transport = transport
        } else {
            let made = DefaultTransport.make(maximumConnections: configuration.maximumConcurrentRequests)
            transport = made.transport
            if let notice = made.notice { logger.info(notice) }
        }
        requestSlots = RequestSlots(limit: configuration.maximumConcurrentRequests)
        tokens = AccessTokenCache(
            provider: tokenProvider,
            clock: configuration.tokenClock,
            fetchTimeout: configuration.tokenProviderTimeout,
            log: { [logger] message in logger.debug(message) }
        )
        deviceClock = configuration.retryClock
        serverClock = ServerCorrectedClock(base: configuration.retryClock, offset: clockOffset)
        retryLoop = RetryLoop(policy: retryPolicy, clock: serverClock)
        let callDeadlines = CallDeadlines(clock: configuration.tokenClock)
        self.callDeadlines = callDeadlines
        callTimeLimit = Self.timeLimit(configuration.callTimeout)
        callClock = configuration.tokenClock
        // Only the system clock: the transport's timer cannot follow a clock a test moves.
        // A call limit beyond the transports' longest timeout would be no limit for libcurl.
        sendsFirstRequestDirectly =
            transport is any SelfBoundedTransport && configuration.tokenClock is SystemTokenClock && configuration.requestTimeout > 0
            && (callTimeLimit.map { $0 > 0 && $0 <= URLSessionTransport.longestTimeout } ?? true)
        callLimitBeforeRequestTimeout = callTimeLimit.flatMap { $0 <= configuration.requestTimeout ? $0 : nil }
        wireProfile = configuration.wireProfile.makeImplementation(allowsPlaintextFallback: configuration.allowsPlaintextFallback)
        requestTimeout = configuration.requestTimeout
        self.logger = logger
        coalescer = configuration.coalescing.map {
            TokenizeCoalescer(
                options: $0, clock: configuration.tokenClock, deadlines: callDeadlines, callTimeLimit: Self.timeLimit(configuration.callTimeout),
                logger: logger)
        }
        if baseURL == nil {
            logger.error("the API URL is not an absolute http(s) URL; every request will fail")
        }
    }

    /// A limit in seconds as the configuration documents it: nil for none (`.infinity`),
    /// zero for zero, negative or NaN.
    static func timeLimit(_ seconds: TimeInterval) -> TimeInterval? {
        guard seconds > 0 else { return 0 }
        return seconds.isInfinite ? nil : seconds
    }

    /// Whole milliseconds from `now` until `end` (0 once it has passed); nil when that cannot
    /// be told (a clock that gives NaN) or is beyond any wait.
    static func millisecondsLeft(until end: TimeInterval, now: TimeInterval) -> Int? {
        let left = (end - now) * 1000
        guard left.isFinite else { return nil }
        return left <= 0 ? 0 : left >= Double(Int.max) ? nil : Int(left)
    }

    /// The base URL with a trailing `/`, so relative paths resolve below it; nil unless
    /// it is an absolute http or https URL.
    static func baseURL(from text: String) -> URL? {
        let withSlash = text.hasSuffix("/") ? text : text + "/"
        guard let url = URL(string: withSlash), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }

    // MARK: Operations

    func tokenize(_ value: String) async -> TokenizeResult {
        if let coalescer { return await coalescer.tokenize(value, through: self) }
        return await tokenizeAlone(value)
    }

    /// One value in one request: the reference behaviour, and the coalescer's path for a
    /// value that is alone in its batch.
    func tokenizeAlone(_ value: String) async -> TokenizeResult {
        let body = WireBodies.TokenizeRequest(value: value).wireJSON
        switch await perform(.tokenize, body: body, decode: { try WireBodies.TokenizeResponse(wireJSON: $0) }) {
        case .success(let response):
            guard !(response.exists && response.newlyCreated) else {
                return Self.result(for: .inconsistentResponse)
            }
            return TokenizeResult(
                token: response.token, exists: response.exists, newlyCreated: response.newlyCreated,
                dataType: response.dataType
            )
        case .failure(let failure):
            return Self.result(for: failure)
        }
    }

    /// Sends a batch of 1 to 1000 strings (the caller checked the count).
    func sendBatch(_ values: [String]) async -> BatchTokenizeResult {
        let body = WireBodies.BatchTokenizeRequest(values: values).wireJSON
        switch await perform(.batchTokenize, body: body, decode: { try WireBodies.BatchTokenizeResponse(wireJSON: $0) }) {
        case .success(let response):
            guard Self.isConsistent(response, with: values) else {
                logger.error("batch response rejected: items or summary do not match the \(values.count) values sent")
                return Self.batchResult(for: .inconsistentResponse)
            }
            let items = response.results.map {
                BatchTokenItem(
                    originalValue: $0.originalValue, token: $0.token, exists: $0.exists,
                    newlyCreated: $0.newlyCreated, dataType: $0.dataType
                )
            }
            let summary = BatchTokenizeSummary(
                processedCount: response.summary.processedCount,
                existingCount: response.summary.existingCount,
                newlyCreatedCount: response.summary.newlyCreatedCount
            )
            return BatchTokenizeResult(results: items, summary: summary)
        case .failure(let failure):
            return Self.batchResult(for: failure)
        }
    }

    private static func result(for failure: RequestFailure) -> TokenizeResult {
        TokenizeResult(errorMessage: failure.message, httpStatusCode: failure.statusCode.map { NSNumber(value: $0) }, errorKind: failure.kind)
    }

    private static func batchResult(for failure: RequestFailure) -> BatchTokenizeResult {
        BatchTokenizeResult(errorMessage: failure.message, httpStatusCode: failure.statusCode.map { NSNumber(value: $0) }, errorKind: failure.kind)
    }

    /// One item per value, in order, each naming its value; flags never both set; a
    /// summary that adds up.
    static func isConsistent(_ response: WireBodies.BatchTokenizeResponse, with values: [String]) -> Bool {
        guard response.results.count == values.count else { return false }
        var existing = 0
        var created = 0
        for (item, value) in zip(response.results, values) {
            guard item.originalValue == value, !(item.exists && item.newlyCreated) else { return false }
            if item.exists { existing += 1 }
            if item.newlyCreated { created += 1 }
        }
        let summary = response.summary
        return summary.processedCount == values.count && summary.existingCount == existing
            && summary.newlyCreatedCount == created
    }

    // MARK: Pipeline

    /// Reads a 2xx answer's plain JSON as the operation's response body.
    typealias ResponseDecoder<Response> = @Sendable (Data) throws -> Response

    private func perform<Response: Sendable>(
        _ operation: TokenizationOperation, body: Data, decode: @escaping ResponseDecoder<Response>
    ) async -> Result<Response, RequestFailure> {
        guard let url = operation == .tokenize ? tokenizeURL : batchTokenizeURL else {
            return .failure(.invalidAPIURL)
        }
        let result = await runBounded(operation, url: url, body: body, decode: decode)
        if case .failure(let failure) = result {
            switch failure.kind {
            case .timeout: logger.error("\(operation.label): \(failure.message); nothing more is sent")
            case .cancelled: logger.info("\(operation.label): \(failure.message)")
            default: break
            }
        }
        return result
    }

    /// The call within its time limit: the first request sent directly when it may be,
    /// the rest (or all of it) through ``BoundedCall``.
    private func runBounded<Response: Sendable>(
        _ operation: TokenizationOperation, url: URL, body: Data, decode: @escaping ResponseDecoder<Response>
    ) async -> Result<Response, RequestFailure> {
        var first: FirstSend?
        var timeLimit = callTimeLimit
        let callEnds = callTimeLimit.map { callClock.now() + $0 }
        if sendsFirstRequestDirectly, !Task.isCancelled, let token = tokens.freshCachedToken(), requestSlots.takeFreeSlot() {
            let direct = await sendFirstDirectly(operation, url: url, body: body, token: token, decode: decode)
            switch direct {
            case .finished(let result):
                return result
            case .goesOn(let sent):
                first = sent
                // The rest of the call has what is left of its limit; a time left the
                // clock cannot tell (NaN) is none.
                timeLimit = callEnds.map { end in
                    let left = end - callClock.now()
                    return left > 0 ? left : 0
                }
            }
        }
        return await BoundedCall.run(timeLimit: timeLimit, reportedLimit: callTimeLimit, deadlines: callDeadlines) { [first] in
            await self.runAttempts(operation, url: url, body: body, first: first, callEnds: callEnds, decode: decode)
        }
    }

    /// The first request of a call, sent by ``runBounded`` on the caller's task.
    private struct FirstSend: Sendable {
        let token: AccessToken
        let exchange: Result<Exchange, TransportError>
    }

    private enum DirectOutcome<Response: Sendable> {
        case finished(Result<Response, RequestFailure>)
        /// The answer asks for more (a retry, a new token, a replay): the attempt goes on
        /// from it.
        case goesOn(FirstSend)
    }

    /// Sends the call's first request in the slot the caller took, with the call's time
    /// limit as its timeout, and finishes the call when that answer is final.
    private func sendFirstDirectly<Response: Sendable>(
        _ operation: TokenizationOperation, url: URL, body: Data, token: AccessToken, decode: ResponseDecoder<Response>
    ) async -> DirectOutcome<Response> {
        let exchange: Exchange
        do {
            defer { requestSlots.release() }
            exchange = try await send(
                operation, url: url, body: body, token: token, number: 0, timeout: callLimitBeforeRequestTimeout ?? requestTimeout,
                slotTaken: true)
        } catch is CancellationError {
            return .finished(.failure(.cancelled))
        } catch let error as TransportError {
            if error == .timedOut, let callLimit = callLimitBeforeRequestTimeout {
                return .finished(.failure(.timedOut(after: callLimit)))
            }
            return .goesOn(FirstSend(token: token, exchange: .failure(error)))
        } catch {
            logger.error("\(operation.label): \(RequestFailure.unexpected.message) (\(type(of: error)))")
            return .finished(.failure(.unexpected))
        }
        if exchange.asksForAnotherSend(profile: wireProfile) {
            return .goesOn(FirstSend(token: token, exchange: .success(exchange)))
        }
        switch classify(exchange, operation: operation, decode: decode) {
        case .finished(let result): return .finished(result)
        case .retryable: return .goesOn(FirstSend(token: token, exchange: .success(exchange)))
        }
    }

    /// - Parameter first: the first request's token and answer when it was sent already.
    /// - Parameter callEnds: when the call's time limit passes, on `callClock`; nil for none.
    private func runAttempts<Response: Sendable>(
        _ operation: TokenizationOperation, url: URL, body: Data, first: FirstSend?, callEnds: TimeInterval?,
        decode: @escaping ResponseDecoder<Response>
    ) async -> Result<Response, RequestFailure> {
        do {
            return try await retryLoop.run(
                { attempt in
                    try await self.attempt(operation, url: url, body: body, number: attempt, first: attempt == 0 ? first : nil, decode: decode)
                },
                timeLeft: { [callClock] in callEnds.flatMap { Self.millisecondsLeft(until: $0, now: callClock.now()) } },
                willRetry: { [logger] status, delay in
                    logger.info("\(operation.label): \(status.map { "HTTP \($0)" } ?? "network failure"); retrying in \(delay) ms")
                },
                wontWait: { [logger] status, delay in
                    logger.info(
                        "\(operation.label): \(status.map { "HTTP \($0)" } ?? "network failure"); not retrying: the wait of \(delay) ms would outlast the call's time limit"
                    )
                }
            )
        } catch is CancellationError {
            return .failure(.cancelled)
        } catch {
            logger.error("\(operation.label): \(RequestFailure.unexpected.message) (\(type(of: error)))")
            return .failure(.unexpected)
        }
    }

    private func attempt<Response: Sendable>(
        _ operation: TokenizationOperation, url: URL, body: Data, number: Int, first: FirstSend?, decode: ResponseDecoder<Response>
    ) async throws -> RetryLoop.Outcome<Result<Response, RequestFailure>> {
        var token: AccessToken
        if let first {
            token = first.token
        } else {
            do {
                token = try await tokens.token()
            } catch let error as AuthError {
                logger.error("\(operation.label): \(error.description)")
                return .finished(.failure(.authentication(error.description)))
            }
        }

        do {
            var exchange: Exchange
            if let first {
                exchange = try first.exchange.get()
            } else {
                exchange = try await send(operation, url: url, body: body, token: token, number: number)
            }
            if exchange.response.statusCode == 401 {
                logger.info("\(operation.label): access token rejected (HTTP 401); refreshing once")
                do {
                    token = try await tokens.token(replacing: token)
                } catch let error as AuthError {
                    return .finished(.failure(.authentication(error.description, statusCode: 401)))
                }
                exchange = try await send(operation, url: url, body: body, token: token, number: number)
                if exchange.response.statusCode == 401 {
                    return .finished(.failure(.forStatus(401, serverCode: exchange.serverErrorCode)))
                }
            }
            if exchange.response.statusCode == 400, exchange.serverErrorCode == "stale_request",
                adoptServerClock(from: exchange.response)
            {
                logger.info("\(operation.label): device clock is off; corrected from the server's Date and replaying once")
                exchange = try await send(operation, url: url, body: body, token: token, number: number)
            }
            if let fallback = wireProfile.fallback(afterStatus: exchange.response.statusCode) {
                logger.info(
                    "\(operation.label): the server could not read the \(wireProfile.logLabel) (HTTP \(exchange.response.statusCode)); "
                        + "sending this request once more as \(fallback.logLabel), as the configuration allows")
                exchange = try await send(operation, url: url, body: body, token: token, number: number, profile: fallback)
            }
            return classify(exchange, operation: operation, decode: decode)
        } catch let error as TransportError where error == .cancelled {
            // The transport gave up on the request itself: the call is over, not retried.
            logger.info("\(operation.label): the transport cancelled the request")
            return .finished(.failure(.cancelled))
        } catch let error as TransportError {
            // The message names the kind of failure, and a detail only in the forms this
            // package's transport writes: an app's transport may have put the request's
            // body or headers in its error.
            let text = error.descriptionForMessages
            if error.isPermanent {
                // Sending it again cannot help (a certificate that does not verify, a URL
                // libcurl cannot use): the policy is not asked.
                logger.error("\(operation.label): no HTTP response (\(text)); not retried")
                return .finished(.failure(.network(text)))
            }
            logger.info("\(operation.label): no HTTP response (\(text))")
            return .retryable(statusCode: nil, retryAfter: nil, final: .failure(.network(text)))
        }
    }

    private struct Exchange: Sendable {
        let response: TransportResponse
        /// Reads a 2xx answer as the profile the request was sealed with.
        let openResponse: SealedWireRequest.ResponseOpener
        /// The `error.code` of an error answer's body, decoded once per response.
        let serverErrorCode: String?

        /// Whether ``attempt`` answers this with another send of the same attempt: a 401
        /// (a fresh token), a `stale_request` 400 (the server's clock), or a status after
        /// which `profile` falls back to another form.
        func asksForAnotherSend(profile: any WireProfile) -> Bool {
            let status = response.statusCode
            return status == 401 || (status == 400 && serverErrorCode == "stale_request") || profile.fallback(afterStatus: status) != nil
        }
    }

    /// Seals (with `profile`, by default the configured one) and sends one request with
    /// `token`, waiting for a slot unless the caller holds one (`slotTaken`).
    /// - Parameter timeout: the request's time limit; nil for the configured `requestTimeout`.
    private func send(
        _ operation: TokenizationOperation, url: URL, body: Data, token: AccessToken, number: Int, profile: (any WireProfile)? = nil,
        timeout: TimeInterval? = nil, slotTaken: Bool = false
    ) async throws -> Exchange {
        let profile = profile ?? wireProfile
        let requestID = RequestID.make()
        let sealed = try profile.sealRequest(
            body, for: WireAttempt(operation: operation, requestID: requestID, accessToken: token.value, now: serverClock.now())
        )
        // One dictionary, built at its final size: the common headers win over a profile's.
        var headers = Self.fixedHeaders
        headers.reserveCapacity(Self.fixedHeaders.count + 2 + sealed.headers.count)
        for (name, value) in sealed.headers where headers[name] == nil { headers[name] = value }
        headers["Authorization"] = "Bearer " + token.value
        headers["X-Request-ID"] = requestID
        logger.debug("\(operation.label): attempt \(number + 1), request \(requestID), \(sealed.body.count) bytes (\(profile.logLabel))")
        let request = TransportRequest(method: "POST", url: url, headers: headers, body: sealed.body, timeout: timeout ?? requestTimeout)
        let response =
            slotTaken
            ? try await transport.send(request)
            : try await requestSlots.withSlot {
                // A call that ended (time limit, cancellation) sends nothing more.
                try Task.checkCancellation()
                return try await transport.send(request)
            }
        logger.debug("\(operation.label): request \(requestID) answered HTTP \(response.statusCode), \(response.body.count) bytes")
        let isError = !(200..<300).contains(response.statusCode)
        return Exchange(
            response: response, openResponse: sealed.openResponse, serverErrorCode: isError ? Self.serverErrorCode(response) : nil)
    }

    private func classify<Response: Sendable>(
        _ exchange: Exchange, operation: TokenizationOperation, decode: ResponseDecoder<Response>
    ) -> RetryLoop.Outcome<Result<Response, RequestFailure>> {
        let response = exchange.response
        switch response.statusCode {
        case 200..<300:
            let decoded = decodeSuccess(exchange, decode: decode)
            if case .failure(let failure) = decoded {
                logger.error("\(operation.label): \(failure.message)")
            }
            return .finished(decoded)
        case 429, 500, 502, 503, 504:
            let failure = RequestFailure.forStatus(response.statusCode, serverCode: exchange.serverErrorCode)
            return .retryable(statusCode: response.statusCode, retryAfter: response.header("Retry-After"), final: .failure(failure))
        default:
            let failure = RequestFailure.forStatus(response.statusCode, serverCode: exchange.serverErrorCode)
            logger.error("\(operation.label): \(failure.message)")
            return .finished(.failure(failure))
        }
    }

    private func decodeSuccess<Response>(_ exchange: Exchange, decode: ResponseDecoder<Response>) -> Result<Response, RequestFailure> {
        let response = exchange.response
        return exchange.openResponse(response.body, response.header).mapError(RequestFailure.init).flatMap { plaintext in
            guard let decoded = try? decode(plaintext) else {
                return .failure(.invalidResponse)
            }
            return .success(decoded)
        }
    }

    /// The `error.code` of an error body, if the body is one.
    static func serverErrorCode(_ response: TransportResponse) -> String? {
        (try? WireBodies.ErrorResponse(wireJSON: response.body))?.error.code
    }

    /// Stores the offset between the server's `Date` and the local clock; false when the
    /// response has no readable `Date`.
    private func adoptServerClock(from response: TransportResponse) -> Bool {
        guard let header = response.header("Date"), let serverDate = HTTPDate.date(from: header) else { return false }
        let offset = Int64((serverDate.timeIntervalSince(deviceClock.now())).rounded())
        clockOffset.seconds = offset
        return true
    }

    /// The headers of section 2 that are the same on every request, built once.
    private static let fixedHeaders: [String: String] = [
        "Content-Type": "application/json",
        "Accept": "application/json",
        "User-Agent": "ZeroPiiSDK/\(sdkVersion) (\(operatingSystem))",
    ]

    private static var operatingSystem: String {
        #if os(iOS)
        return "iOS"
        #elseif os(macOS)
        return "macOS"
        #elseif os(tvOS)
        return "tvOS"
        #elseif os(watchOS)
        return "watchOS"
        #elseif os(Linux)
        return "Linux"
        #else
        return "unknown"
        #endif
    }
}
