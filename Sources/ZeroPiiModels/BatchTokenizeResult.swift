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
    /// What kind of failure this is (``ZeroPiiErrorKind/none`` on success), so a program
    /// can act on a failure without matching its message.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let errorKind: ZeroPiiErrorKind

    /// A successful result.
    public init(results: [BatchTokenItem], summary: BatchTokenizeSummary) {
        isSuccess = true
        self.results = results
        self.summary = summary
        errorMessage = nil
        httpStatusCode = nil
        errorKind = .none
    }

    /// A failed result whose kind follows from `httpStatusCode` (see
    /// ``ZeroPiiErrorKind/init(httpStatusCode:)``), or is ``ZeroPiiErrorKind/unexpected``
    /// without one.
    public convenience init(errorMessage: String, httpStatusCode: NSNumber? = nil) {
        self.init(
            errorMessage: errorMessage, httpStatusCode: httpStatusCode,
            errorKind: httpStatusCode.map { ZeroPiiErrorKind(httpStatusCode: $0.intValue) } ?? .unexpected
        )
    }

    /// A failed result of a given kind. A kind of ``ZeroPiiErrorKind/none`` is taken as
    /// ``ZeroPiiErrorKind/unexpected``: a failure always has a kind.
    public init(errorMessage: String, httpStatusCode: NSNumber? = nil, errorKind: ZeroPiiErrorKind) {
        isSuccess = false
        results = []
        summary = nil
        self.errorMessage = errorMessage
        self.httpStatusCode = httpStatusCode
        self.errorKind = errorKind == .none ? .unexpected : errorKind
    }

    public override var description: String {
        if isSuccess, let summary {
            return "BatchTokenizeResult(success, \(summary))"
        }
        return
            "BatchTokenizeResult(failure: \(errorKind), \(errorMessage ?? "unknown error"), httpStatusCode: \(httpStatusCode.map { "\($0)" } ?? "nil"))"
    }
}
