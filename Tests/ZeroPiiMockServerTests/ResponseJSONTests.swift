import Foundation
import Testing
import ZeroPiiModels

@testable import ZeroPiiMockServer

struct ResponseJSONTests {
    static let awkward = ["plain", "quote \" and \\ backslash", "line\nbreak\r\ttab", "\u{01}\u{1F}control", "Zürich 日本 🙂", "42", ""]

    @Test func batchBodiesDecodeWithTheProtocolTypes() throws {
        let items = Self.awkward.enumerated().map { index, value in
            ResponseJSON.Item(
                originalValue: value, token: value.uppercased(), exists: index % 2 == 0, newlyCreated: index % 2 == 1, isNumber: value == "42")
        }
        let decoded = try JSONDecoder().decode(WireBodies.BatchTokenizeResponse.self, from: ResponseJSON.batch(items))
        #expect(decoded.results.map(\.originalValue) == Self.awkward)
        #expect(decoded.results.map(\.token) == Self.awkward.map { $0.uppercased() })
        #expect(decoded.results.map(\.exists) == items.map(\.exists))
        #expect(decoded.results.map(\.dataType) == Self.awkward.map { $0 == "42" ? "number" : "string" })
        #expect(decoded.summary == WireBodies.BatchTokenizeSummary(processedCount: 7, existingCount: 4, newlyCreatedCount: 3))
    }

    @Test func singleBodiesDecodeWithTheProtocolTypes() throws {
        for value in Self.awkward {
            let body = ResponseJSON.single(.init(originalValue: value, token: value, exists: false, newlyCreated: true, isNumber: false))
            let decoded = try JSONDecoder().decode(WireBodies.TokenizeResponse.self, from: body)
            #expect(decoded == WireBodies.TokenizeResponse(token: value, exists: false, newlyCreated: true, dataType: "string"))
        }
    }
}
