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

    /// A successful result.
    public init(token: String, exists: Bool, newlyCreated: Bool, dataType: String?) {
        isSuccess = true
        self.token = token
        self.exists = exists
        self.newlyCreated = newlyCreated
        self.dataType = dataType
        errorMessage = nil
        httpStatusCode = nil
    }

    /// A failed result.
    public init(errorMessage: String, httpStatusCode: NSNumber? = nil) {
        isSuccess = false
        token = nil
        exists = false
        newlyCreated = false
        dataType = nil
        self.errorMessage = errorMessage
        self.httpStatusCode = httpStatusCode
    }

    public override var description: String {
        if isSuccess {
            return "TokenizeResult(success, exists: \(exists), newlyCreated: \(newlyCreated), dataType: \(dataType ?? "nil"))"
        }
        return "TokenizeResult(failure: \(errorMessage ?? "unknown error"), httpStatusCode: \(httpStatusCode.map { "\($0)" } ?? "nil"))"
    }
}
