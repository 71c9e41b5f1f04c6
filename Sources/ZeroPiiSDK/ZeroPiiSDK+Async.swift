import Foundation

/// `async` variants of the tokenize methods for Swift callers. They return the same
/// result types as the callbacks (a failure is a result, not a thrown error) and run
/// on the caller's task: cancelling the task ends the call at once with an error result
/// of kind ``/ZeroPiiModels/ZeroPiiErrorKind/cancelled``, whatever the call was doing.
///
/// Each call takes the configuration current when it starts and keeps it to the end,
/// even if `initialize` is called again meanwhile.
extension ZeroPiiSDK {
    /// The most values one batch may hold.
    public static let maximumBatchSize = 1000

    /// Tokenizes a string.
    public func tokenize(_ value: String) async -> TokenizeResult {
        await currentEngine.client.tokenize(value)
    }

    /// Tokenizes an integer.
    public func tokenize(_ value: Int) async -> TokenizeResult {
        await currentEngine.client.tokenize(value)
    }

    /// Tokenizes a 64-bit integer.
    public func tokenize(_ value: Int64) async -> TokenizeResult {
        await currentEngine.client.tokenize(value)
    }

    /// Tokenizes a `Float`; NaN and infinities give an error result without a request.
    public func tokenize(_ value: Float) async -> TokenizeResult {
        await currentEngine.client.tokenize(value)
    }

    /// Tokenizes a `Double`; NaN and infinities give an error result without a request.
    public func tokenize(_ value: Double) async -> TokenizeResult {
        await currentEngine.client.tokenize(value)
    }

    /// Tokenizes a Boolean.
    public func tokenize(_ value: Bool) async -> TokenizeResult {
        await currentEngine.client.tokenize(value)
    }

    /// Tokenizes 1 to 1000 strings in one request.
    public func batchTokenize(_ values: [String]) async -> BatchTokenizeResult {
        await currentEngine.client.batchTokenize(values)
    }

    /// Tokenizes 1 to 1000 integers in one request.
    public func batchTokenize(_ values: [Int]) async -> BatchTokenizeResult {
        await currentEngine.client.batchTokenize(values)
    }

    /// Tokenizes 1 to 1000 64-bit integers in one request.
    public func batchTokenize(_ values: [Int64]) async -> BatchTokenizeResult {
        await currentEngine.client.batchTokenize(values)
    }

    /// Tokenizes 1 to 1000 `Float`s; any NaN or infinity fails the batch without a request.
    public func batchTokenize(_ values: [Float]) async -> BatchTokenizeResult {
        await currentEngine.client.batchTokenize(values)
    }

    /// Tokenizes 1 to 1000 `Double`s; any NaN or infinity fails the batch without a request.
    public func batchTokenize(_ values: [Double]) async -> BatchTokenizeResult {
        await currentEngine.client.batchTokenize(values)
    }

    /// Tokenizes 1 to 1000 Booleans in one request.
    public func batchTokenize(_ values: [Bool]) async -> BatchTokenizeResult {
        await currentEngine.client.batchTokenize(values)
    }
}
