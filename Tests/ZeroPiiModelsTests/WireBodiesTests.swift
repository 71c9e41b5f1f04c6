import Foundation
import Testing
import ZeroPiiModels

struct WireBodiesTests {
    @Test func decodersIgnoreUnknownFieldsAndMissingDataType() throws {
        let json = #"{"token":"t","exists":false,"newlyCreated":true,"extra":{"nested":[1,2]},"more":1}"#
        let body = try JSONDecoder().decode(WireBodies.TokenizeResponse.self, from: Data(json.utf8))
        #expect(body == WireBodies.TokenizeResponse(token: "t", exists: false, newlyCreated: true, dataType: nil))
    }

    @Test func batchResponseDecodesTheProtocolExample() throws {
        let json = """
            {"results": [
               {"originalValue": "alice@example.com", "token": "qzmfe@hxkwpqa.com", "exists": true,  "newlyCreated": false, "dataType": "string"},
               {"originalValue": "42",                "token": "87",                "exists": false, "newlyCreated": true,  "dataType": "number"}],
             "summary": {"processedCount": 2, "existingCount": 1, "newlyCreatedCount": 1}}
            """
        let body = try JSONDecoder().decode(WireBodies.BatchTokenizeResponse.self, from: Data(json.utf8))
        #expect(body.results.count == 2)
        #expect(body.results[1].dataType == "number")
        #expect(body.summary == WireBodies.BatchTokenizeSummary(processedCount: 2, existingCount: 1, newlyCreatedCount: 1))
    }

    @Test func envelopeAndErrorBodiesRoundTrip() throws {
        let envelope = WireBodies.EnvelopeRequest(v: 1, rid: "r", ts: 1_700_000_000, salt: "c2FsdA==", iv: "aXY=", ct: "Y3Q=")
        let encoded = try JSONEncoder().encode(envelope)
        #expect(try JSONDecoder().decode(WireBodies.EnvelopeRequest.self, from: encoded) == envelope)
        let error = try JSONDecoder().decode(
            WireBodies.ErrorResponse.self,
            from: Data(#"{"error":{"code":"batch_too_large","message":"a batch holds at most 1000 values"}}"#.utf8)
        )
        #expect(error.error.code == "batch_too_large")
    }

    @Test func wrongTypesFailToDecode() {
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(WireBodies.TokenizeResponse.self, from: Data(#"{"token":5,"exists":false,"newlyCreated":true}"#.utf8))
        }
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(WireBodies.BatchTokenizeResponse.self, from: Data(#"{"results":[]}"#.utf8))
        }
    }
}
