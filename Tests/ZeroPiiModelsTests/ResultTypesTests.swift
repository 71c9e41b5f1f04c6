import Foundation
import Testing
import ZeroPiiModels

struct ResultTypesTests {
    @Test func successAndFailureCarryTheDocumentedFields() {
        let success = TokenizeResult(token: "tok-123", exists: true, newlyCreated: false, dataType: "string")
        #expect(success.isSuccess && success.token == "tok-123" && success.exists && !success.newlyCreated)
        #expect(success.errorMessage == nil && success.httpStatusCode == nil)
        let failure = TokenizeResult(errorMessage: "rate limited", httpStatusCode: 429)
        #expect(!failure.isSuccess && failure.token == nil && failure.dataType == nil)
        #expect(failure.httpStatusCode?.intValue == 429)

        let item = BatchTokenItem(originalValue: "alice@example.com", token: "tok-9", exists: false, newlyCreated: true, dataType: "string")
        let batch = BatchTokenizeResult(results: [item], summary: BatchTokenizeSummary(processedCount: 1, existingCount: 0, newlyCreatedCount: 1))
        #expect(batch.isSuccess && batch.results.count == 1 && batch.summary?.newlyCreatedCount == 1)
        let batchFailure = BatchTokenizeResult(errorMessage: "empty batch")
        #expect(!batchFailure.isSuccess && batchFailure.results.isEmpty && batchFailure.summary == nil)
    }

    @Test func descriptionsNeverShowValuesOrTokens() {
        let texts = [
            TokenizeResult(token: "tok-123", exists: true, newlyCreated: false, dataType: "string").description,
            BatchTokenItem(originalValue: "alice@example.com", token: "tok-9", exists: false, newlyCreated: true, dataType: nil).description,
            BatchTokenizeResult(
                results: [BatchTokenItem(originalValue: "alice@example.com", token: "tok-9", exists: false, newlyCreated: true, dataType: nil)],
                summary: BatchTokenizeSummary(processedCount: 1, existingCount: 0, newlyCreatedCount: 1)
            ).description,
        ]
        for text in texts {
            #expect(!text.contains("tok-"))
            #expect(!text.contains("alice"))
        }
    }
}
