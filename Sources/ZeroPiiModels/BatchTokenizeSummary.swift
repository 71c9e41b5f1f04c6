import Foundation

/// Counts for a batch: how many values were processed, found and created.
#if canImport(ObjectiveC)
@objc(BatchTokenizeSummary)
#endif
public class BatchTokenizeSummary: NSObject, @unchecked Sendable {
    // Sendable: every stored property is an immutable value.

    /// Total values processed.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let processedCount: Int
    /// Values that already had a token.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let existingCount: Int
    /// Tokens created by this call.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let newlyCreatedCount: Int

    /// Counts for a batch.
    public init(processedCount: Int, existingCount: Int, newlyCreatedCount: Int) {
        self.processedCount = processedCount
        self.existingCount = existingCount
        self.newlyCreatedCount = newlyCreatedCount
    }

    public override var description: String {
        "BatchTokenizeSummary(processed: \(processedCount), existing: \(existingCount), newlyCreated: \(newlyCreatedCount))"
    }
}
