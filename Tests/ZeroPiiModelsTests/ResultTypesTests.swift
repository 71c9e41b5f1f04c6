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

struct ErrorKindTests {
    @Test func successHasNoKindAndFailuresAlwaysHaveOne() {
        #expect(TokenizeResult(token: "t", exists: false, newlyCreated: true, dataType: nil).errorKind == .none)
        #expect(
            BatchTokenizeResult(results: [], summary: BatchTokenizeSummary(processedCount: 0, existingCount: 0, newlyCreatedCount: 0)).errorKind
                == .none)
        #expect(TokenizeResult(errorMessage: "x", errorKind: .network).errorKind == .network)
        #expect(BatchTokenizeResult(errorMessage: "x", errorKind: .timeout).errorKind == .timeout)
        #expect(TokenizeResult(errorMessage: "x", errorKind: .none).errorKind == .unexpected)
        #expect(TokenizeResult(errorMessage: "x").errorKind == .unexpected)
        #expect(TokenizeResult(errorMessage: "x", httpStatusCode: 429).errorKind == .rateLimited)
        #expect(BatchTokenizeResult(errorMessage: "x", httpStatusCode: 503).errorKind == .server)
        #expect(TokenizeResult(errorMessage: "x", httpStatusCode: 401).description.contains("authentication"))
    }

    /// Docs/Protocol.md section 6, status by status.
    @Test(arguments: [
        (400, ZeroPiiErrorKind.invalidInput), (401, .authentication), (403, .authentication), (404, .configuration),
        (409, .server), (413, .invalidInput), (418, .configuration), (419, .configuration), (429, .rateLimited),
        (500, .server), (501, .server), (502, .server), (503, .server), (504, .server), (505, .server),
        (302, .configuration), (101, .configuration), (200, .invalidResponse),
    ])
    func statusesMapToTheirDocumentedKind(status: Int, kind: ZeroPiiErrorKind) {
        #expect(ZeroPiiErrorKind(httpStatusCode: status) == kind)
    }

    @Test func rawValuesAndNamesAreStable() {
        let all: [ZeroPiiErrorKind] = [
            .none, .invalidInput, .configuration, .authentication, .network, .timeout, .rateLimited, .server, .invalidResponse,
            .cancelled, .unexpected,
        ]
        #expect(all.map(\.rawValue) == Array(0...10))
        #expect(
            all.map(\.description) == [
                "none", "invalidInput", "configuration", "authentication", "network", "timeout", "rateLimited", "server",
                "invalidResponse", "cancelled", "unexpected",
            ])
    }
}
