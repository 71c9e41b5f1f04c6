import Dispatch
import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

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
public final class ZeroPiiSDK: NSObject, Sendable {

    private static let registry = SharedInstance()

    /// The pieces one configuration is made of, replaced together by `initialize`.
    struct Engine: Sendable {
        let client: TokenizationClient
        let callbackQueue: DispatchQueue
        let logger: SDKLogger
    }

    private let engine: Locked<Engine>

    private init(engine: Engine) {
        self.engine = Locked(engine)
    }

    var currentEngine: Engine { engine.withLock { $0 } }

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
    /// Returns the engine it replaced, for the caller to let go of outside every lock:
    /// the last reference to an engine may end its transport, and a transport's teardown
    /// is the platform's code, which must not run while the SDK holds a lock.
    func replaceEngine(_ newEngine: Engine) -> Engine {
        engine.withLock { engine in
            defer { engine = newEngine }
            return engine
        }
    }
}
