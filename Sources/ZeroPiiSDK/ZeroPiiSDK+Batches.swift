import Dispatch
import Foundation

extension ZeroPiiSDK {
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
}
