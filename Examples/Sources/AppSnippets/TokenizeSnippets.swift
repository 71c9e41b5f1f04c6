import CleverTapZeroPiiSDK

// Quick Start, steps 3 and 4 (Swift): single values and batches. Callbacks arrive on
// the main thread.
enum TokenizeSnippets {
    static func tokenizeOneValue() {
        let sdk = ZeroPiiSDK.getInstance()

        sdk.tokenizeString("alice@example.com") { result in
            if result.isSuccess {
                let token = result.token!  // the generated token
                let wasExisting = result.exists  // true if this value was already tokenized before
                let isNew = result.newlyCreated  // true if a new token was created
                let dataType = result.dataType  // "string" or "number"
                print("Token: \(token) existing: \(wasExisting) new: \(isNew) type: \(dataType ?? "-")")
            } else {
                print("Tokenization failed: \(result.errorMessage ?? "unknown error")")
            }
        }

        // Numeric types
        sdk.tokenizeInt(42) { result in print(result.isSuccess) }
        sdk.tokenizeLong(9876543210) { result in print(result.isSuccess) }
        sdk.tokenizeFloat(3.14) { result in print(result.isSuccess) }
        sdk.tokenizeDouble(2.71828) { result in print(result.isSuccess) }
        sdk.tokenizeBool(true) { result in print(result.isSuccess) }
    }

    static func tokenizeABatch() {
        let emails = ["alice@example.com", "bob@example.com", "carol@example.com"]

        ZeroPiiSDK.getInstance().batchTokenizeStringValues(emails) { result in
            if result.isSuccess {
                let summary = result.summary!
                print("Processed : \(summary.processedCount)")
                print("New tokens: \(summary.newlyCreatedCount)")
                print("Existing  : \(summary.existingCount)")

                for item in result.results {
                    print("\(item.originalValue) → \(item.token)")
                }
            } else {
                print("Batch failed: \(result.errorMessage ?? "unknown error")")
            }
        }

        // Other supported types
        ZeroPiiSDK.getInstance().batchTokenizeIntValues([1, 2, 3]) { result in print(result.isSuccess) }
        ZeroPiiSDK.getInstance().batchTokenizeLongValues([10_000_000_000]) { result in print(result.isSuccess) }
        ZeroPiiSDK.getInstance().batchTokenizeFloatValues([1.1, 2.2]) { result in print(result.isSuccess) }
        ZeroPiiSDK.getInstance().batchTokenizeDoubleValues([1.111, 2.222]) { result in print(result.isSuccess) }
        ZeroPiiSDK.getInstance().batchTokenizeBoolValues([true, false]) { result in print(result.isSuccess) }
    }
}
