import Dispatch
import Foundation

/// The entry point: initialise once with your ``/ZeroPiiAuth/AccessTokenProvider`` and API URL, then
/// tokenize values through ``getInstance()``.
///
/// Every tokenize method works in the background and calls its callback exactly once:
/// on the caller's actor when it is called from actor-isolated code (a `@MainActor` view
/// model, a SwiftUI view), otherwise on the main queue (or the queue in
/// ``ZeroPiiConfiguration/callbackQueue``); see <doc:GettingStarted#Concurrency>. Swift
/// callers can use the `async` variants in `ZeroPiiSDK+Async.swift` instead.
///
/// Calling `initialize` again replaces the configuration of the same instance: new
/// calls use the new provider, URL, policy and settings; calls already running finish
/// with the old ones. Each call takes its whole configuration (client and callback
/// queue together) when it starts.
#if canImport(ObjectiveC)
@objc(ZeroPiiSDK)
#endif
public final class ZeroPiiSDK: NSObject, @unchecked Sendable {
    // Sendable: the mutable state (`engine`) is guarded by `lock`.

    private static let registry = SharedInstance()

    /// The pieces one configuration is made of, replaced together by `initialize`.
    struct Engine: Sendable {
        let client: TokenizationClient
        let callbackQueue: DispatchQueue
        let logger: SDKLogger
    }

    private let lock = NSLock()
    private var engine: Engine

    private init(engine: Engine) {
        self.engine = engine
    }

    var currentEngine: Engine { lock.withLock { engine } }

    // MARK: Initialisation

    /// Initialises the SDK, or reconfigures it if it was initialised before.
    ///
    /// - Parameters:
    ///   - tokenProvider: Supplies bearer tokens.
    ///   - apiUrl: Base URL of the tokenization API (a trailing `/` is added if missing).
    ///   - logLevel: Logging verbosity.
    ///   - retryPolicy: Controls retries of failed requests.
    /// - Returns: The shared instance.
    @discardableResult
    #if canImport(ObjectiveC)
    @objc(initializeWithTokenProvider:apiUrl:logLevel:retryPolicy:)
    #endif
    public static func initialize(
        tokenProvider: AccessTokenProvider,
        apiUrl: String,
        logLevel: ZeroPiiLogLevel,
        retryPolicy: RetryPolicy
    ) -> ZeroPiiSDK {
        initialize(
            tokenProvider: tokenProvider, apiUrl: apiUrl, logLevel: logLevel, retryPolicy: retryPolicy,
            configuration: ZeroPiiConfiguration()
        )
    }

    /// Initialises the SDK with the default ``/ZeroPiiRetry/RetryPolicy`` (1 retry, exponential back-off).
    @discardableResult
    #if canImport(ObjectiveC)
    @objc(initializeWithTokenProvider:apiUrl:logLevel:)
    #endif
    public static func initialize(
        tokenProvider: AccessTokenProvider,
        apiUrl: String,
        logLevel: ZeroPiiLogLevel
    ) -> ZeroPiiSDK {
        initialize(tokenProvider: tokenProvider, apiUrl: apiUrl, logLevel: logLevel, retryPolicy: DefaultRetryPolicy())
    }

    /// Initialises the SDK with logging off and the default ``/ZeroPiiRetry/RetryPolicy``.
    @discardableResult
    #if canImport(ObjectiveC)
    @objc(initializeWithTokenProvider:apiUrl:)
    #endif
    public static func initialize(
        tokenProvider: AccessTokenProvider,
        apiUrl: String
    ) -> ZeroPiiSDK {
        initialize(tokenProvider: tokenProvider, apiUrl: apiUrl, logLevel: .off, retryPolicy: DefaultRetryPolicy())
    }

    /// Initialises the SDK with settings beyond the reference API (callback queue,
    /// timeouts, payload encryption, log handler, transport, clocks).
    @discardableResult
    public static func initialize(
        tokenProvider: AccessTokenProvider,
        apiUrl: String,
        logLevel: ZeroPiiLogLevel,
        retryPolicy: RetryPolicy,
        configuration: ZeroPiiConfiguration
    ) -> ZeroPiiSDK {
        let logger = SDKLogger(level: logLevel, handler: configuration.logHandler)
        let engine = Engine(
            client: TokenizationClient(
                apiURL: apiUrl, tokenProvider: SharedTokenProvider(tokenProvider), retryPolicy: retryPolicy,
                configuration: configuration, logger: logger
            ),
            callbackQueue: configuration.callbackQueue,
            logger: logger
        )
        let (instance, replaced) = registry.install(engine: engine) { ZeroPiiSDK(engine: $0) }
        if replaced {
            logger.info("ZeroPiiSDK initialised again: the new configuration replaces the previous one")
        } else {
            logger.info("ZeroPiiSDK \(TokenizationClient.sdkVersion) initialised")
        }
        for note in configuration.settingsIgnoredByWireProfile {
            logger.info(note)
        }
        return instance
    }

    /// The shared instance. Stops the app with a fatal error if ``initialize(tokenProvider:apiUrl:)``
    /// has not been called yet.
    #if canImport(ObjectiveC)
    @objc(getInstance)
    #endif
    public static func getInstance() -> ZeroPiiSDK {
        guard let instance = registry.instance else {
            fatalError("ZeroPiiSDK.getInstance() was called before ZeroPiiSDK.initialize(tokenProvider:apiUrl:); call initialize first")
        }
        return instance
    }

    /// The shared instance, or nil before initialisation (for code that must not crash).
    public static var instanceIfInitialized: ZeroPiiSDK? {
        registry.instance
    }

    /// Swaps in a new configuration.
    fileprivate func replaceEngine(_ newEngine: Engine) {
        lock.withLock { engine = newEngine }
    }

    // MARK: Single values and batches
    //
    // Each method comes twice. The Swift one has an `isolation` parameter that defaults to
    // the caller's actor (`#isolation`): a callback formed in actor-isolated code (a
    // `@MainActor` view model, a SwiftUI view) belongs to that actor, and Swift 6 checks
    // that at run time, so the SDK runs it there rather than on `callbackQueue`, where the
    // check would trap. A callback with an actor of its own that the caller's isolation
    // does not match (`{ @MainActor in ... }` from nonisolated code) does not convert to
    // the parameter's type: a compile error instead of a trap. The Objective-C one has the
    // reference's selector and no isolation (blocks have none), and is hidden from Swift so
    // that Swift code always gets the isolation-aware method.

    /// Tokenizes a string, unchanged (no trimming, no normalisation).
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - value: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func tokenizeString(
        _ value: String, isolation: isolated (any Actor)? = #isolation, callback: @escaping (TokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.tokenize(value) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `tokenizeString:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(tokenizeString:callback:)
    @available(swift, obsoleted: 1, message: "Swift calls tokenizeString(_:isolation:callback:), which runs the callback on the caller's actor")
    public func tokenizeString(_ value: String, callback: @escaping (TokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.tokenize(value) }
    }
    #endif

    /// Tokenizes an integer, sent in decimal.
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - value: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func tokenizeInt(
        _ value: Int, isolation: isolated (any Actor)? = #isolation, callback: @escaping (TokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.tokenize(value) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `tokenizeInt:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(tokenizeInt:callback:)
    @available(swift, obsoleted: 1, message: "Swift calls tokenizeInt(_:isolation:callback:), which runs the callback on the caller's actor")
    public func tokenizeInt(_ value: Int, callback: @escaping (TokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.tokenize(value) }
    }
    #endif

    /// Tokenizes a 64-bit integer, sent in decimal.
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - value: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func tokenizeLong(
        _ value: Int64, isolation: isolated (any Actor)? = #isolation, callback: @escaping (TokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.tokenize(value) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `tokenizeLong:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(tokenizeLong:callback:)
    @available(swift, obsoleted: 1, message: "Swift calls tokenizeLong(_:isolation:callback:), which runs the callback on the caller's actor")
    public func tokenizeLong(_ value: Int64, callback: @escaping (TokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.tokenize(value) }
    }
    #endif

    /// Tokenizes a `Float`, written as Java's `Float.toString` writes it. NaN and
    /// infinities give an error result without a request.
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - value: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func tokenizeFloat(
        _ value: Float, isolation: isolated (any Actor)? = #isolation, callback: @escaping (TokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.tokenize(value) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `tokenizeFloat:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(tokenizeFloat:callback:)
    @available(swift, obsoleted: 1, message: "Swift calls tokenizeFloat(_:isolation:callback:), which runs the callback on the caller's actor")
    public func tokenizeFloat(_ value: Float, callback: @escaping (TokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.tokenize(value) }
    }
    #endif

    /// Tokenizes a `Double`, written as Java's `Double.toString` writes it. NaN and
    /// infinities give an error result without a request.
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - value: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func tokenizeDouble(
        _ value: Double, isolation: isolated (any Actor)? = #isolation, callback: @escaping (TokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.tokenize(value) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `tokenizeDouble:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(tokenizeDouble:callback:)
    @available(swift, obsoleted: 1, message: "Swift calls tokenizeDouble(_:isolation:callback:), which runs the callback on the caller's actor")
    public func tokenizeDouble(_ value: Double, callback: @escaping (TokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.tokenize(value) }
    }
    #endif

    /// Tokenizes a Boolean, sent as `true` or `false`.
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - value: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func tokenizeBool(
        _ value: Bool, isolation: isolated (any Actor)? = #isolation, callback: @escaping (TokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.tokenize(value) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `tokenizeBool:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(tokenizeBool:callback:)
    @available(swift, obsoleted: 1, message: "Swift calls tokenizeBool(_:isolation:callback:), which runs the callback on the caller's actor")
    public func tokenizeBool(_ value: Bool, callback: @escaping (TokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.tokenize(value) }
    }
    #endif

    /// Tokenizes 1 to 1000 strings in one request. An empty or larger batch gives an
    /// error result at once, without a request.
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - values: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func batchTokenizeStringValues(
        _ values: [String], isolation: isolated (any Actor)? = #isolation, callback: @escaping (BatchTokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.batchTokenize(values) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `batchTokenizeStringValues:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(batchTokenizeStringValues:callback:)
    @available(
        swift, obsoleted: 1, message: "Swift calls batchTokenizeStringValues(_:isolation:callback:), which runs the callback on the caller's actor"
    )
    public func batchTokenizeStringValues(_ values: [String], callback: @escaping (BatchTokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.batchTokenize(values) }
    }
    #endif

    /// Tokenizes 1 to 1000 integers in one request.
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - values: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func batchTokenizeIntValues(
        _ values: [Int], isolation: isolated (any Actor)? = #isolation, callback: @escaping (BatchTokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.batchTokenize(values) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `batchTokenizeIntValues:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(batchTokenizeIntValues:callback:)
    @available(
        swift, obsoleted: 1, message: "Swift calls batchTokenizeIntValues(_:isolation:callback:), which runs the callback on the caller's actor"
    )
    public func batchTokenizeIntValues(_ values: [Int], callback: @escaping (BatchTokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.batchTokenize(values) }
    }
    #endif

    /// Tokenizes 1 to 1000 64-bit integers in one request.
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - values: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func batchTokenizeLongValues(
        _ values: [Int64], isolation: isolated (any Actor)? = #isolation, callback: @escaping (BatchTokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.batchTokenize(values) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `batchTokenizeLongValues:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(batchTokenizeLongValues:callback:)
    @available(
        swift, obsoleted: 1, message: "Swift calls batchTokenizeLongValues(_:isolation:callback:), which runs the callback on the caller's actor"
    )
    public func batchTokenizeLongValues(_ values: [Int64], callback: @escaping (BatchTokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.batchTokenize(values) }
    }
    #endif

    /// Tokenizes 1 to 1000 `Float`s in one request; any NaN or infinity fails the batch
    /// without a request.
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - values: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func batchTokenizeFloatValues(
        _ values: [Float], isolation: isolated (any Actor)? = #isolation, callback: @escaping (BatchTokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.batchTokenize(values) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `batchTokenizeFloatValues:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(batchTokenizeFloatValues:callback:)
    @available(
        swift, obsoleted: 1, message: "Swift calls batchTokenizeFloatValues(_:isolation:callback:), which runs the callback on the caller's actor"
    )
    public func batchTokenizeFloatValues(_ values: [Float], callback: @escaping (BatchTokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.batchTokenize(values) }
    }
    #endif

    /// Tokenizes 1 to 1000 `Double`s in one request; any NaN or infinity fails the batch
    /// without a request.
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - values: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func batchTokenizeDoubleValues(
        _ values: [Double], isolation: isolated (any Actor)? = #isolation, callback: @escaping (BatchTokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.batchTokenize(values) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `batchTokenizeDoubleValues:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(batchTokenizeDoubleValues:callback:)
    @available(
        swift, obsoleted: 1, message: "Swift calls batchTokenizeDoubleValues(_:isolation:callback:), which runs the callback on the caller's actor"
    )
    public func batchTokenizeDoubleValues(_ values: [Double], callback: @escaping (BatchTokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.batchTokenize(values) }
    }
    #endif

    /// Tokenizes 1 to 1000 Booleans in one request.
    ///
    /// The callback runs exactly once: on the caller's actor when called from
    /// actor-isolated code, on ``ZeroPiiConfiguration/callbackQueue`` otherwise.
    ///
    /// - Parameters:
    ///   - values: What to tokenize.
    ///   - isolation: Leave out: the caller's actor (`#isolation`), if any.
    ///   - callback: Receives the result.
    public func batchTokenizeBoolValues(
        _ values: [Bool], isolation: isolated (any Actor)? = #isolation, callback: @escaping (BatchTokenizeResult) -> Void
    ) {
        deliver(isolation: isolation, callback) { await $0.batchTokenize(values) }
    }

    #if canImport(ObjectiveC)
    /// Objective-C's `batchTokenizeBoolValues:callback:`: the callback runs on ``ZeroPiiConfiguration/callbackQueue``.
    @objc(batchTokenizeBoolValues:callback:)
    @available(
        swift, obsoleted: 1, message: "Swift calls batchTokenizeBoolValues(_:isolation:callback:), which runs the callback on the caller's actor"
    )
    public func batchTokenizeBoolValues(_ values: [Bool], callback: @escaping (BatchTokenizeResult) -> Void) {
        deliver(isolation: nil, callback) { await $0.batchTokenize(values) }
    }
    #endif

    // MARK: Delivery

    /// Runs `work` in the background and hands its result to `callback` exactly once: on
    /// `isolation`, the caller's actor, when there is one (the callback may touch that
    /// actor's state, and Swift 6 checks that it runs there), else on the configured
    /// queue. The configuration is read once, here: a call runs with the client and calls
    /// back on the queue of the same `initialize`.
    private func deliver<Result: Sendable>(
        isolation: isolated (any Actor)?,
        _ callback: @escaping (Result) -> Void,
        _ work: @escaping @Sendable (TokenizationClient) async -> Result
    ) {
        let engine = currentEngine
        let box = CallbackBox(callback)
        // The pipeline of each call runs in a task of its own, not on this task's thread
        // (BoundedCall): no app code waits here, and the callback must come at the time
        // limit even while an app's transport blocks its thread.
        let run: @Sendable () async -> Result = {
            await BoundedCall.startsPipelineOnCallersThread.withValue(false) { await work(engine.client) }
        }
        guard isolation != nil else {
            Task.detached {
                let result = ResultHandoff(await run())
                engine.callbackQueue.async { box.callback(result.take()) }
            }
            return
        }
        // Capturing the isolated parameter makes the task run on that actor; `work` is
        // nonisolated and async, so the request itself still runs off it.
        Task {
            _ = isolation
            let result = await run()
            box.callback(result)
        }
    }
}

/// The singleton, created on first `initialize` and reconfigured by later ones.
private final class SharedInstance: @unchecked Sendable {
    // Sendable: `current` is guarded by `lock`.
    private let lock = NSLock()
    private var current: ZeroPiiSDK?

    var instance: ZeroPiiSDK? { lock.withLock { current } }

    /// Installs `engine` in the existing instance, or creates one; says which.
    func install(engine: ZeroPiiSDK.Engine, create: (ZeroPiiSDK.Engine) -> ZeroPiiSDK) -> (ZeroPiiSDK, replaced: Bool) {
        lock.withLock {
            if let current {
                current.replaceEngine(engine)
                return (current, true)
            }
            let created = create(engine)
            current = created
            return (created, false)
        }
    }
}

/// Carries a result from the task that made it to the callback queue through a lock, so
/// that the hand-over is ordered by something every race detector sees. ThreadSanitizer
/// once reported a result's fields as raced between the two threads when only
/// `DispatchQueue.async` stood between them.
private final class ResultHandoff<Result>: @unchecked Sendable {
    // Sendable: `result` is written once, in `init`, and read under `lock`.
    private let lock = NSLock()
    private var result: Result

    init(_ result: Result) {
        lock.lock()
        self.result = result
        lock.unlock()
    }

    func take() -> Result { lock.withLock { result } }
}

/// Carries an app's callback to the callback queue or the caller's actor. The SDK calls
/// it once, there, and touches it nowhere else, so handing it across threads is safe even
/// though the reference API's closure type is not `@Sendable`.
private struct CallbackBox<Result>: @unchecked Sendable {
    let callback: (Result) -> Void
    init(_ callback: @escaping (Result) -> Void) { self.callback = callback }
}
