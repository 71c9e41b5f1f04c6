import Foundation

/// The outcome of tokenizing one value.
///
/// On success `token`, `exists`, `newlyCreated` and `dataType` describe the token; on
/// failure `errorMessage` says what went wrong and `httpStatusCode` holds the server's
/// status when it answered. Descriptions never include the token.
#if canImport(ObjectiveC)
@objc(TokenizeResult)
#endif
public class TokenizeResult: NSObject, @unchecked Sendable {
    // Sendable: every stored property is an immutable value.

    /// `true` when the value was tokenized.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let isSuccess: Bool
    /// The token (nil on error).
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let token: String?
    /// `true` if this value had been tokenized before.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let exists: Bool
    /// `true` if this call created the token.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let newlyCreated: Bool
    /// `"string"` or `"number"` (nil on error, or when the server did not say).
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let dataType: String?
    /// A human-readable error (nil on success). It never contains the submitted value,
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
    public init(token: String, exists: Bool, newlyCreated: Bool, dataType: String?) {
        isSuccess = true
        self.token = token
        self.exists = exists
        self.newlyCreated = newlyCreated
        self.dataType = dataType
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
        token = nil
        exists = false
        newlyCreated = false
        dataType = nil
        self.errorMessage = errorMessage
        self.httpStatusCode = httpStatusCode
        self.errorKind = errorKind == .none ? .unexpected : errorKind
    }

    public override var description: String {
        if isSuccess {
            return "TokenizeResult(success, exists: \(exists), newlyCreated: \(newlyCreated), dataType: \(dataType ?? "nil"))"
        }
        return "TokenizeResult(failure: \(errorKind), \(errorMessage ?? "unknown error"), httpStatusCode: \(httpStatusCode.map { "\($0)" } ?? "nil"))"
    }
}
