import Foundation

/// `async` variants of the tokenize methods for Swift callers. They return the same
/// result types as the callbacks (a failure is a result, not a thrown error) and run
/// on the caller's task: cancelling the task cancels the request and gives an error
/// result saying so.
extension ZeroPiiSDK {
    /// The most values one batch may hold.
    public static let maximumBatchSize = 1000

    /// Tokenizes a string.
    public func tokenize(_ value: String) async -> TokenizeResult {
        await currentEngine.client.tokenize(value)
    }

    /// Tokenizes an integer.
    public func tokenize(_ value: Int) async -> TokenizeResult {
        await tokenize(WireValueFormat.string(value))
    }

    /// Tokenizes a 64-bit integer.
    public func tokenize(_ value: Int64) async -> TokenizeResult {
        await tokenize(WireValueFormat.string(value))
    }

    /// Tokenizes a `Float`; NaN and infinities give an error result without a request.
    public func tokenize(_ value: Float) async -> TokenizeResult {
        guard let text = WireValueFormat.string(value) else { return Self.nonFiniteSingle() }
        return await tokenize(text)
    }

    /// Tokenizes a `Double`; NaN and infinities give an error result without a request.
    public func tokenize(_ value: Double) async -> TokenizeResult {
        guard let text = WireValueFormat.string(value) else { return Self.nonFiniteSingle() }
        return await tokenize(text)
    }

    /// Tokenizes a Boolean.
    public func tokenize(_ value: Bool) async -> TokenizeResult {
        await tokenize(WireValueFormat.string(value))
    }

    /// Tokenizes 1 to 1000 strings in one request.
    public func batchTokenize(_ values: [String]) async -> BatchTokenizeResult {
        if let failure = Self.batchSizeFailure(values.count) { return failure }
        return await currentEngine.client.batchTokenize(values)
    }

    /// Tokenizes 1 to 1000 integers in one request.
    public func batchTokenize(_ values: [Int]) async -> BatchTokenizeResult {
        await batchTokenize(values.map(WireValueFormat.string))
    }

    /// Tokenizes 1 to 1000 64-bit integers in one request.
    public func batchTokenize(_ values: [Int64]) async -> BatchTokenizeResult {
        await batchTokenize(values.map(WireValueFormat.string))
    }

    /// Tokenizes 1 to 1000 `Float`s; any NaN or infinity fails the batch without a request.
    public func batchTokenize(_ values: [Float]) async -> BatchTokenizeResult {
        if let failure = Self.batchSizeFailure(values.count) { return failure }
        let texts = values.compactMap(WireValueFormat.string)
        guard texts.count == values.count else { return Self.nonFiniteBatch() }
        return await batchTokenize(texts)
    }

    /// Tokenizes 1 to 1000 `Double`s; any NaN or infinity fails the batch without a request.
    public func batchTokenize(_ values: [Double]) async -> BatchTokenizeResult {
        if let failure = Self.batchSizeFailure(values.count) { return failure }
        let texts = values.compactMap(WireValueFormat.string)
        guard texts.count == values.count else { return Self.nonFiniteBatch() }
        return await batchTokenize(texts)
    }

    /// Tokenizes 1 to 1000 Booleans in one request.
    public func batchTokenize(_ values: [Bool]) async -> BatchTokenizeResult {
        await batchTokenize(values.map(WireValueFormat.string))
    }

    private static func batchSizeFailure(_ count: Int) -> BatchTokenizeResult? {
        if count == 0 {
            return BatchTokenizeResult(errorMessage: "a batch must hold at least one value")
        }
        if count > maximumBatchSize {
            return BatchTokenizeResult(errorMessage: "a batch holds at most \(maximumBatchSize) values; this one had \(count)")
        }
        return nil
    }

    private static func nonFiniteSingle() -> TokenizeResult {
        TokenizeResult(errorMessage: "NaN and infinite numbers cannot be tokenized")
    }

    private static func nonFiniteBatch() -> BatchTokenizeResult {
        BatchTokenizeResult(errorMessage: "the batch holds NaN or an infinite number, which cannot be tokenized")
    }
}
