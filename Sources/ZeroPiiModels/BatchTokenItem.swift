import Foundation

/// The token of one value in a batch.
#if canImport(ObjectiveC)
@objc(BatchTokenItem)
#endif
public class BatchTokenItem: NSObject, @unchecked Sendable {
    // Sendable: every stored property is an immutable value.

    /// The value as it was sent (numbers in their string form).
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let originalValue: String
    /// The token.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let token: String
    /// `true` if the value had been tokenized before.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let exists: Bool
    /// `true` if this call created the token.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let newlyCreated: Bool
    /// `"string"` or `"number"`, or nil when the server did not say.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let dataType: String?

    /// The token of one value in a batch.
    public init(originalValue: String, token: String, exists: Bool, newlyCreated: Bool, dataType: String?) {
        self.originalValue = originalValue
        self.token = token
        self.exists = exists
        self.newlyCreated = newlyCreated
        self.dataType = dataType
    }

    /// Shows the flags only: the value and the token are personal or derived data.
    public override var description: String {
        "BatchTokenItem(exists: \(exists), newlyCreated: \(newlyCreated), dataType: \(dataType ?? "nil"))"
    }
}
