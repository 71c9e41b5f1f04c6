import Dispatch
import Foundation

// Each of these is a module of its own under Swift Package Manager; CocoaPods compiles
// every subspec into the one CleverTapZeroPiiSDK module, where they do not exist.
#if canImport(ZeroPiiAuth)
import ZeroPiiAuth
#endif
#if canImport(ZeroPiiRetry)
import ZeroPiiRetry
#endif
#if canImport(ZeroPiiTransport)
import ZeroPiiTransport
#endif

/// Settings beyond the reference API, for the
/// ``ZeroPiiSDK/initialize(tokenProvider:apiUrl:logLevel:retryPolicy:configuration:)``
/// overload. Every property has a default, so set only what you need.
public struct ZeroPiiConfiguration: Sendable {
    /// Where callbacks are delivered. Default: the main queue.
    public var callbackQueue: DispatchQueue = .main
    /// How long one HTTP attempt may take, in seconds. Default: 30.
    public var requestTimeout: TimeInterval = 30
    /// How long to wait for the ``/ZeroPiiAuth/AccessTokenProvider`` to call its completion before the
    /// request fails, in seconds. Default: 30.
    public var tokenProviderTimeout: TimeInterval = 30
    /// Whether payloads travel in the v1 encrypted envelope. Default: `true`. Turning it
    /// off sends plain JSON (still over TLS); the SDK never falls back on its own.
    public var payloadEncryption: Bool = true
    /// Receives every log line at or below the log level instead of `os_log` or
    /// standard error. Lines never hold values, tokens or access tokens.
    public var logHandler: (@Sendable (ZeroPiiLogLevel, String) -> Void)?
    /// The HTTP transport. Default (`nil`): a `URLSession`-based transport. Tests pass a
    /// `ClosureTransport` from the `ZeroPiiTestSupport` product.
    public var transport: (any HTTPTransport)?
    /// The clock for retry back-off and request timestamps. Tests inject one that does
    /// not wait.
    public var retryClock: any RetryClock = SystemRetryClock()
    /// The clock for access-token expiry and the provider timeout.
    public var tokenClock: any TokenClock = SystemTokenClock()

    /// The defaults: what the reference's `initialize` overloads use.
    public init() {}
}
