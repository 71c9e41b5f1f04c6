import Dispatch
import Foundation

extension ZeroPiiSDK {
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
}
