import Foundation

#if compiler(>=6.2)
/// Supplies bearer access tokens to the SDK; the app's bridge to its own auth system.
///
/// Call `completion` exactly once: with an ``AccessTokenInfo`` on success, or with an
/// error on failure. The SDK guards against the usual mistakes: later calls of the
/// same completion are ignored (and logged at debug level), a provider that never
/// calls it produces an error result after a timeout (30 s by default) instead of a
/// hang, and an error becomes an error result saying the access token could not be
/// obtained. `fetchToken` may be called on any thread.
///
/// The completion is `@Sendable`, so an implementation may call it from any queue, task
/// or `URLSession` handler. In Swift 6 language mode declare the parameter the same way,
/// `completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void`; a class isolated
/// to the main actor also marks the method `nonisolated`, because the SDK asks for tokens
/// from its own threads. The reference's signature without `@Sendable` still conforms, in
/// either language mode, as long as its body does not hand the completion to another
/// thread.
///
/// The protocol is `SendableMetatype` (Swift 6.2 compilers and later): a conformance
/// isolated to an actor (`@MainActor AccessTokenProvider`, the compiler's fix-it for a
/// main-actor class) is a compile error rather than a data race, since the SDK calls
/// the provider off that actor; and in code that is main-actor by default a provider
/// class is nonisolated.
#if canImport(ObjectiveC)
@objc(AccessTokenProvider)
#endif
public protocol AccessTokenProvider: SendableMetatype {
    /// Fetches a fresh access token.
    ///
    /// - Parameter completion: Call it exactly once, from any thread: with the token, or
    ///   with `nil` and the error that prevented it. Safe to capture in `@Sendable`
    ///   closures (dispatch queues, tasks, `URLSession` handlers).
    #if canImport(ObjectiveC)
    @objc(fetchTokenWithCompletion:)
    #endif
    func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void)
}
#else
/// Supplies bearer access tokens to the SDK; the app's bridge to its own auth system.
///
/// The same protocol for Swift 6.0 and 6.1 compilers, which have no `SendableMetatype`.
#if canImport(ObjectiveC)
@objc(AccessTokenProvider)
#endif
public protocol AccessTokenProvider {
    /// Fetches a fresh access token.
    #if canImport(ObjectiveC)
    @objc(fetchTokenWithCompletion:)
    #endif
    func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void)
}
#endif
