import Dispatch
import Foundation

// Each of these is a module of its own under Swift Package Manager; CocoaPods compiles
// every subspec into the one CleverTapZeroPiiSDK module, where they do not exist.
#if canImport(ZeroPiiAuth)
import ZeroPiiAuth
#endif
#if canImport(ZeroPiiModels)
import ZeroPiiModels
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
///
/// ### Time limits
///
/// ``callTimeout``, ``requestTimeout`` and ``tokenProviderTimeout`` are in seconds and
/// accept any value without overflow: `.infinity` means no limit, and zero, a negative
/// value or NaN means the limit has already passed (the call, attempt or token fetch
/// fails at once). The package's transports enforce at most 30 days per attempt
/// (`URLSessionTransport.longestTimeout`); a longer finite value counts as no limit
/// there. A ``/ZeroPiiRetry/RetryPolicy``'s delay may be any `Int`: negative counts as
/// zero, and any wait, up to `Int.max` milliseconds, is cut short by ``callTimeout``.
public struct ZeroPiiConfiguration: Sendable {
    /// Where callbacks of calls made from nonisolated code (and from Objective-C) are
    /// delivered. Default: the main queue. A callback passed from actor-isolated code runs
    /// on that actor instead, whatever this queue is: it belongs to the actor, and Swift 6
    /// would stop the app if it ran anywhere else.
    public var callbackQueue: DispatchQueue = .main
    /// How long one whole call may take, in seconds: the access token, every attempt and
    /// every wait between attempts. When it passes, the call ends with an error result of
    /// kind ``/ZeroPiiModels/ZeroPiiErrorKind/timeout`` and nothing more is sent for it.
    /// Default: 120, which leaves room for the default token timeout, two attempts and
    /// the default back-off. `.infinity` removes the limit.
    ///
    /// The result comes within a small margin of the limit, also under load: with 1,000
    /// concurrent calls, a 1 s limit and a server that answers after 3 s, every result
    /// arrived by 1.04 s on a 2-core machine, with either transport
    /// (`zeropii-benchmarks transport`); 10,000 such calls ended by 1.2 s. The package's
    /// tests, a debug build sharing the machine with hundreds of other tests, allow 10 s.
    public var callTimeout: TimeInterval = 120
    /// How long one HTTP attempt may take, in seconds. Default: 30. An attempt that
    /// times out is a network failure, which the ``/ZeroPiiRetry/RetryPolicy`` may retry.
    public var requestTimeout: TimeInterval = 30
    /// How long to wait for the ``/ZeroPiiAuth/AccessTokenProvider`` to call its completion before the
    /// request fails, in seconds. Default: 30. `.infinity` waits as long as the provider
    /// needs (the call is still bounded by ``callTimeout``).
    public var tokenProviderTimeout: TimeInterval = 30
    /// How many HTTP requests this SDK instance has in flight at most; calls beyond it
    /// wait, in the order they came, for a request to end. Default: 8 (OkHttp allows 5
    /// per host, `URLSession` on Apple platforms 6 connections per host). The wait counts
    /// toward ``callTimeout``, and a call whose task is cancelled while it waits leaves
    /// at once. Less than 1 counts as 1; `Int.max` removes the bound.
    public var maximumConcurrentRequests: Int = 8
    /// How bodies travel: the v1 envelope (the default), the envelope of CleverTap's
    /// Android SDK for CleverTap's tokenization service, or plain JSON (still over TLS).
    /// See ``/ZeroPiiModels/ZeroPiiWireProfile`` for what each protects.
    public var wireProfile: ZeroPiiWireProfile = .protocolV1
    /// Whether a request that CleverTap's service could not decrypt (HTTP 419) is sent
    /// once more in plaintext. Default: `false`, and then a 419 is an error result.
    ///
    /// Only the ``/ZeroPiiModels/ZeroPiiWireProfile/cleverTapCompatible`` profile reads it. When set,
    /// just the request that got the 419 is re-sent, once, in plaintext (logged at info
    /// level, without values); the next request is encrypted again. The Android SDK
    /// instead switches to plaintext for the rest of the process, silently. Set with
    /// another profile, it has no effect, and `initialize` says so once at info level.
    public var allowsPlaintextFallback: Bool = false
    /// Deprecated: set ``wireProfile`` instead, which also chooses between the two
    /// encrypted profiles.
    ///
    /// Whether payloads are encrypted: `true` unless ``wireProfile`` is
    /// ``/ZeroPiiModels/ZeroPiiWireProfile/plaintext``. Setting `false` chooses plaintext; setting `true`
    /// chooses the v1 envelope when the profile was plaintext and leaves an encrypted
    /// profile as it is.
    @available(*, deprecated, message: "set wireProfile to .protocolV1, .cleverTapCompatible or .plaintext")
    public var payloadEncryption: Bool {
        get { wireProfile != .plaintext }
        set {
            if !newValue {
                wireProfile = .plaintext
            } else if wireProfile == .plaintext {
                wireProfile = .protocolV1
            }
        }
    }
    /// Receives every log line at or below the log level instead of `os_log` or
    /// standard error. Lines never hold values, tokens or access tokens.
    public var logHandler: (@Sendable (ZeroPiiLogLevel, String) -> Void)?
    /// The HTTP transport. Default (`nil`): `CurlTransport` on Linux (libcurl, loaded at
    /// run time, with ``maximumConcurrentRequests`` connections; `URLSessionTransport`,
    /// with a line at info level, where libcurl cannot be loaded) and
    /// `URLSessionTransport` on Apple platforms. Tests pass a `ClosureTransport` from
    /// the `ZeroPiiTestSupport` product.
    public var transport: (any HTTPTransport)?
    /// The clock for retry back-off, request timestamps and `Retry-After` dates (the
    /// latter two corrected by the server's clock offset once the SDK learned it). Tests
    /// inject one that does not wait.
    public var retryClock: any RetryClock = SystemRetryClock()
    /// The monotonic clock for access-token expiry, the provider timeout and
    /// ``callTimeout``. Tests inject a `ManualTokenClock` to move time on at will.
    public var tokenClock: any TokenClock = SystemTokenClock()
    /// Whether concurrent single tokenize calls share batch requests, and how
    /// (``Coalescing``). Default: `nil`, one request per call, as the reference SDK
    /// does. Turn it on when many single calls run at once: a form's fields tokenized
    /// together, or a server tokenizing one value per incoming event. Batch calls are
    /// not affected; a single call alone in its window is sent as without coalescing,
    /// once the window has closed.
    public var coalescing: Coalescing?

    /// The defaults: what the reference's `initialize` overloads use.
    public init() {}
}

extension ZeroPiiConfiguration {
    /// One line for each setting that the chosen ``wireProfile`` does not read, so that
    /// an app that set it learns at start-up that it has no effect (logged at info level
    /// by `initialize`).
    var settingsIgnoredByWireProfile: [String] {
        var notes: [String] = []
        if allowsPlaintextFallback && wireProfile != .cleverTapCompatible {
            notes.append(
                "allowsPlaintextFallback is ignored: only the cleverTapCompatible wire profile falls back to plaintext, "
                    + "and this SDK uses the \(wireProfile.rawValue) profile")
        }
        return notes
    }
}
