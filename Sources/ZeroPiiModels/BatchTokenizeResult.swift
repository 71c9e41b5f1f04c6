import Foundation

/// The outcome of tokenizing a batch of values.
///
/// On success `results` holds one item per input value, in input order, and `summary`
/// adds them up. On failure `results` is empty, `summary` is nil and `errorMessage`
/// says what went wrong.
#if canImport(ObjectiveC)
@objc(BatchTokenizeResult)
#endif
public class BatchTokenizeResult: NSObject, @unchecked Sendable {
    // Sendable: every stored property is an immutable value.

    /// `true` when every value was tokenized.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let isSuccess: Bool
    /// One item per input value, in input order (empty on error).
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let results: [BatchTokenItem]
    /// Aggregate counts (nil on error).
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let summary: BatchTokenizeSummary?
    /// A human-readable error (nil on success). It never contains a submitted value,
    /// a token or the access token.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let errorMessage: String?
    /// The HTTP status code when the server answered with an error; nil for errors
    /// found by the SDK itself or for network failures.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let httpStatusCode: NSNumber?

    /// A successful result.
    public init(results: [BatchTokenItem], summary: BatchTokenizeSummary) {
        isSuccess = true
        self.results = results
        self.summary = summary
        errorMessage = nil
        httpStatusCode = nil
    }

    /// A failed result.
    public init(errorMessage: String, httpStatusCode: NSNumber? = nil) {
        isSuccess = false
        results = []
        summary = nil
        self.errorMessage = errorMessage
        self.httpStatusCode = httpStatusCode
    }

    public override var description: String {
        if isSuccess, let summary {
            return "BatchTokenizeResult(success, \(summary))"
        }
        return "BatchTokenizeResult(failure: \(errorMessage ?? "unknown error"), httpStatusCode: \(httpStatusCode.map { "\($0)" } ?? "nil"))"
    }
}
