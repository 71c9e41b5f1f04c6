import Foundation
import Testing

import ZeroPiiModels

@testable import ZeroPiiWire

/// The reader's two shortcuts: a schema key taken from its exact quoted bytes in any
/// order, and strings scanned eight bytes at a time up to the first byte that needs a
/// look. Each must read exactly what the byte-by-byte path reads, and reject exactly
/// what it rejects, at the same offset.
struct WireJSONReaderScanTests {
    private static let members = [
        #""originalValue":"a""#, #""token":"b""#, #""exists":true"#, #""newlyCreated":false"#, #""dataType":"string""#,
    ]

    @Test func schemaKeysAreReadInEveryOrder() throws {
        let expected = WireBodies.BatchTokenizeItem(originalValue: "a", token: "b", exists: true, newlyCreated: false, dataType: "string")
        for order in Self.permutations(of: Array(0..<5)) {
            let item = "{" + order.map { Self.members[$0] }.joined(separator: ",") + "}"
            let body = #"{"results":["# + item + "," + item + #"],"summary":{"processedCount":2,"existingCount":2,"newlyCreatedCount":0}}"#
            let read = try WireBodies.BatchTokenizeResponse(wireJSON: Data(body.utf8))
            #expect(read.results == [expected, expected], "\(body)")
        }
    }

    @Test func keysThatAreNotASchemaKeysExactBytes() throws {
        // Escaped: the same key, found by the full scan.
        let escaped = #"{"tok\u0065n":"t","\u0065xists":true,"newlyCreated":false}"#
        #expect(try WireBodies.TokenizeResponse(wireJSON: Data(escaped.utf8)).token == "t")
        // A schema key's bytes followed by more: another key, skipped.
        let longer = #"{"token":"t","tokens":"u","existsX":1,"exists":true,"newlyCreated":false}"#
        let read = try WireBodies.TokenizeResponse(wireJSON: Data(longer.utf8))
        #expect(read == WireBodies.TokenizeResponse(token: "t", exists: true, newlyCreated: false, dataType: nil))
        // A schema key twice, whichever of the two forms comes first.
        for body in [
            #"{"tok\u0065n":"t","token":"u","exists":true,"newlyCreated":false}"#,
            #"{"exists":true,"token":"t","newlyCreated":false,"token":"u"}"#,
        ] {
            let second = body.range(of: #""token""#, options: .backwards)!.lowerBound
            #expect(throws: WireJSONError(.duplicateKey, at: body.utf8.distance(from: body.startIndex, to: second))) {
                try WireBodies.TokenizeResponse(wireJSON: Data(body.utf8))
            }
        }
        // A key cut off at the body's end.
        #expect(throws: WireJSONError.self) { try WireBodies.TokenizeResponse(wireJSON: Data(#"{"token"#.utf8)) }
    }

    /// Every kind of byte that ends the eight-byte steps, at every position of a 24-byte
    /// string: the value is what it holds, and a byte that is not allowed is reported
    /// where it is.
    @Test func aByteThatNeedsALookIsFoundInEveryLane() throws {
        let plain = Array("abcdefghijklmnopqrstuvwx".utf8)
        let accepted: [(inserted: [UInt8], means: String)] = [
            (Array(#"\""#.utf8), "\""), (Array(#"\\"#.utf8), "\\"), (Array(#"\n"#.utf8), "\n"), (Array(#"\u00e9"#.utf8), "é"),
            (Array("é".utf8), "é"), (Array("漢".utf8), "漢"), (Array("🙂".utf8), "🙂"), ([0x7F], "\u{7F}"), ([0x20], " "),
        ]
        let rejected: [(inserted: [UInt8], reason: WireJSONError.Reason)] = [
            ([0x00], .controlCharacterInString), ([0x1F], .controlCharacterInString), ([0xFF], .invalidUTF8), ([0xC3], .invalidUTF8),
        ]
        let prefix = Array(#"{"value":""#.utf8)
        for position in 0...plain.count {
            let before = Array(plain[..<position])
            let after = Array(plain[position...])
            for (inserted, means) in accepted {
                let body = prefix + before + inserted + after + Array(#""}"#.utf8)
                let expected = String(decoding: before, as: UTF8.self) + means + String(decoding: after, as: UTF8.self)
                #expect(try WireBodies.TokenizeRequest(wireJSON: Data(body)).value == expected, "\(inserted) at \(position)")
            }
            for (inserted, reason) in rejected {
                let body = prefix + before + inserted + after + Array(#""}"#.utf8)
                #expect(throws: WireJSONError(reason, at: prefix.count + position), "\(inserted) at \(position)") {
                    try WireBodies.TokenizeRequest(wireJSON: Data(body))
                }
            }
            // The string ends early: what follows is not JSON.
            let cut = prefix + before + Array(#"""#.utf8) + after + Array(#""}"#.utf8)
            #expect(throws: WireJSONError.self) { try WireBodies.TokenizeRequest(wireJSON: Data(cut)) }
            // No closing quote at all.
            #expect(throws: WireJSONError(.unterminatedString, at: prefix.count - 1)) {
                try WireBodies.TokenizeRequest(wireJSON: Data(prefix + before + after))
            }
        }
    }

    private static func permutations(of elements: [Int]) -> [[Int]] {
        guard elements.count > 1 else { return [elements] }
        return elements.indices.flatMap { index -> [[Int]] in
            var rest = elements
            let first = rest.remove(at: index)
            return permutations(of: rest).map { [first] + $0 }
        }
    }
}
