import Foundation
import Testing
import ZeroPiiModels
import ZeroPiiTestHelpers

@testable import ZeroPiiWire

/// The hand-written wire JSON (WireJSONWriter, WireJSONReader, WireBase64): exact output
/// bytes, every rejection, and agreement with Foundation.
struct WireJSONTests {
    // MARK: Writing

    @Test func stringsAreEscapedAsRFC8259RequiresAndNoMore() throws {
        let value = "q\"b\\s/\u{08}\u{09}\u{0A}\u{0C}\u{0D}\u{00}\u{1F}\u{7F}é Жук 漢字 🙂\u{2028}"
        let body = String(decoding: WireBodies.TokenizeRequest(value: value).wireJSON, as: UTF8.self)
        #expect(body == #"{"value":"q\"b\\s/\b\t\n\f\r\u0000\u001f"# + "\u{7F}é Жук 漢字 🙂\u{2028}\"}")
        let parsed = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String]
        #expect(parsed == ["value": value])
    }

    @Test func envelopeBodiesFollowTheProtocolsKeyOrder() {
        let salt = Data((0..<32).map { UInt8($0) })
        let iv = Data(repeating: 0xFF, count: 12)
        let ciphertext = Data([0xFB, 0xFF, 0x00, 0x01])
        let request = WireBodies.EnvelopeRequest.wireJSON(
            version: 1, requestID: "0f7c", timestamp: 1_700_000_000, salt: salt, iv: iv, ciphertext: ciphertext)
        #expect(
            String(decoding: request, as: UTF8.self)
                == #"{"v":1,"rid":"0f7c","ts":1700000000,"salt":"\#(salt.base64EncodedString())","iv":"////////////////","ct":"+/8AAQ=="}"#)
        let response = WireBodies.EnvelopeResponse.wireJSON(version: 1, requestID: "0f7c", iv: iv, ciphertext: ciphertext)
        #expect(String(decoding: response, as: UTF8.self) == #"{"v":1,"rid":"0f7c","iv":"////////////////","ct":"+/8AAQ=="}"#)
        let cleverTap = WireBodies.CleverTapEnvelopeRequest.wireJSON(ciphertext: Data([1, 2]), tag: Data([3]), key: Data([0xFE]), iv: Data([0]))
        #expect(String(decoding: cleverTap, as: UTF8.self) == #"{"itp":"AQID","itk":"/g==","itv":"AA=="}"#)
        #expect(
            String(decoding: WireBodies.CleverTapEnvelopeResponse.wireJSON(sealed: Data([1]), iv: Data([2, 3])), as: UTF8.self)
                == #"{"itp":"AQ==","itv":"AgM="}"#)
    }

    @Test func plainBodiesAreWrittenCompactInTheProtocolsOrder() {
        #expect(String(decoding: WireBodies.BatchTokenizeRequest(values: ["a", "42"]).wireJSON, as: UTF8.self) == #"{"values":["a","42"]}"#)
        let response = WireBodies.BatchTokenizeResponse(
            results: [.init(originalValue: "42", token: "87", exists: false, newlyCreated: true, dataType: "number")],
            summary: .init(processedCount: 1, existingCount: 0, newlyCreatedCount: 1))
        #expect(
            String(decoding: response.wireJSON, as: UTF8.self)
                == #"{"results":[{"originalValue":"42","token":"87","exists":false,"newlyCreated":true,"dataType":"number"}],"#
                + #""summary":{"processedCount":1,"existingCount":0,"newlyCreatedCount":1}}"#)
        #expect(
            String(decoding: WireBodies.TokenizeResponse(token: "t", exists: true, newlyCreated: false, dataType: nil).wireJSON, as: UTF8.self)
                == #"{"token":"t","exists":true,"newlyCreated":false}"#)
        #expect(
            String(decoding: WireBodies.ErrorResponse(code: "c", message: "m/n").wireJSON, as: UTF8.self)
                == #"{"error":{"code":"c","message":"m/n"}}"#)
    }

    @Test(arguments: [Int64.min, -1, 0, 7, 1_700_000_000, Int64.max])
    func integersRoundTrip(value: Int64) throws {
        var writer = WireJSONWriter(capacity: 8)
        writer.integer(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        let read = try WireJSONReader.read(Data(writer.bytes)) { try $0.readInteger(in: Int64.min...Int64.max) }
        #expect(read == value)
    }

    // MARK: Reading

    @Test func everyBodyRoundTripsThroughFoundationBothWays() throws {
        let awkward = ["alice@example.com", "q\"\\/\n\u{01}", "Жук", "漢字", "🙂𝄞", "", "42"]
        for value in awkward {
            let single = WireBodies.TokenizeRequest(value: value)
            #expect(try JSONDecoder().decode(WireBodies.TokenizeRequest.self, from: single.wireJSON) == single)
            #expect(try WireBodies.TokenizeRequest(wireJSON: JSONEncoder().encode(single)) == single)
        }
        let batch = WireBodies.BatchTokenizeRequest(values: awkward)
        #expect(try WireBodies.BatchTokenizeRequest(wireJSON: JSONEncoder().encode(batch)) == batch)
        #expect(try JSONDecoder().decode(WireBodies.BatchTokenizeRequest.self, from: batch.wireJSON) == batch)
        let items = awkward.map { WireBodies.BatchTokenizeItem(originalValue: $0, token: $0 + "x", exists: true, newlyCreated: false, dataType: nil) }
        let response = WireBodies.BatchTokenizeResponse(results: items, summary: .init(processedCount: 7, existingCount: 7, newlyCreatedCount: 0))
        #expect(try WireBodies.BatchTokenizeResponse(wireJSON: JSONEncoder().encode(response)) == response)
        #expect(try JSONDecoder().decode(WireBodies.BatchTokenizeResponse.self, from: response.wireJSON) == response)
        let error = WireBodies.ErrorResponse(code: "stale_request", message: "the request time is more than 300 s from the server's")
        #expect(try WireBodies.ErrorResponse(wireJSON: JSONEncoder().encode(error)) == error)
    }

    @Test func foundationsEnvelopesReadAndTheirBase64Decodes() throws {
        // JSONEncoder writes `/` as `\/` and orders keys by hash; both must read.
        let salt = Data((0..<32).map { UInt8(255 - $0) })
        let envelope = WireBodies.EnvelopeRequest(
            v: 1, rid: "r", ts: -5, salt: salt.base64EncodedString(), iv: Data(repeating: 0xFF, count: 12).base64EncodedString(), ct: "")
        let read = try WireBodies.EnvelopeRequest(wireJSON: JSONEncoder().encode(envelope))
        #expect(read == envelope)
        #expect(WireBase64.decode(read.salt) == salt && WireBase64.decode(read.iv) == Data(repeating: 0xFF, count: 12))
        #expect(WireBase64.decode(read.ct) == Data())
        let response = try WireBodies.EnvelopeResponse(wireJSON: Data(#"{"ct":"AAE=","iv":"AA==","rid":"r","v":1,"more":[{"x":null}]}"#.utf8))
        #expect(WireBase64.decode(response.ct) == Data([0, 1]) && WireBase64.decode(response.iv) == Data([0]))
        let cleverTap = try WireBodies.CleverTapEnvelopeResponse(wireJSON: Data(#"{"itv":"AB==","itp":"AQ=="}"#.utf8))
        #expect(WireBase64.decode(cleverTap.itv) == nil && WireBase64.decode(cleverTap.itp) == Data([1]))
    }

    @Test func acceptsWhatTheProtocolAllows() throws {
        let body =
            " \r\n\t{ \"t\\u006fken\" : \"\\u0041\\ud83d\\ude00\\/\" , \"exists\":true,\"newlyCreated\":false,\"dataType\":null,"
            + "\"x\":{\"a\":[1,-0.5e+3,1E-9,0,true,false,null,\"\\\"\",{}],\"b\":[]},\"y\":1e999 } \n"
        let read = try WireBodies.TokenizeResponse(wireJSON: Data(body.utf8))
        #expect(read == WireBodies.TokenizeResponse(token: "A😀/", exists: true, newlyCreated: false, dataType: nil))
    }

    static let base = #"{"token":"t","exists":false,"newlyCreated":true"#

    /// Bodies that are not a tokenize response, each for one reason.
    static let rejected: [(String, WireJSONError.Reason)] = [
        ("", .unexpectedEnd),
        ("[]", .expectedObject),
        ("null", .expectedObject),
        (base + "}x", .trailingBytes),
        (base + "}}", .trailingBytes),
        (base, .unexpectedEnd),
        (base + ",}", .expectedKey),
        (base + ";}", .expectedCommaOrEnd),
        (#"{"token""t"}"#, .expectedColon),
        (#"{token:"t"}"#, .expectedKey),
        (#"{"token":"t","exists":false}"#, .missingKey),
        (#"{"token":"t","exists":false,"newlyCreated":true,"token":"u"}"#, .duplicateKey),
        (#"{"token":"t","exists":false,"newlyCreated":true,"x":1,"x":2}"#, .duplicateKey),
        (#"{"token":"t","tok\u0065n":"u","exists":false,"newlyCreated":true}"#, .duplicateKey),
        (#"{"token":5,"exists":false,"newlyCreated":true}"#, .expectedString),
        (#"{"token":null,"exists":false,"newlyCreated":true}"#, .expectedString),
        (#"{"token":"t","exists":"false","newlyCreated":true}"#, .expectedBool),
        (#"{"token":"t","exists":0,"newlyCreated":true}"#, .expectedBool),
        (#"{"token":"t","exists":False,"newlyCreated":true}"#, .expectedBool),
        (#"{"token":"t","exists":tru,"newlyCreated":true}"#, .expectedValue),
        (#"{"token":"t","exists":false,"newlyCreated":true,"dataType":7}"#, .expectedString),
        (base + #","x":01}"#, .expectedCommaOrEnd),
        (base + #","x":1.}"#, .invalidNumber),
        (base + #","x":.5}"#, .expectedValue),
        (base + #","x":-}"#, .invalidNumber),
        (base + #","x":1e}"#, .invalidNumber),
        (base + #","x":+1}"#, .expectedValue),
        (base + #","x":NaN}"#, .expectedValue),
        (base + #","x":[1,]}"#, .expectedValue),
        (base + #","x":[,1]}"#, .expectedValue),
        (base + #","x":{"a":1,}}"#, .expectedKey),
        (base + #","x":'a'}"#, .expectedValue),
        (base + #","x":"\x"}"#, .invalidEscape),
        (base + #","x":"\u12"}"#, .invalidEscape),
        (base + #","x":"\u12G4"}"#, .invalidEscape),
        (base + #","x":"\ud800"}"#, .loneSurrogate),
        (base + #","x":"\udc00\ud800"}"#, .loneSurrogate),
        (base + #","x":"\ud800\u0041"}"#, .loneSurrogate),
        (base + #","x":"\ud83d\ud83d"}"#, .loneSurrogate),
        (base + "," + #""x":"a"# + "\u{01}" + #""}"#, .controlCharacterInString),
        (base + "," + #""x":"a"# + "\n" + #""}"#, .controlCharacterInString),
        (base + #","x":"abc}"#, .unterminatedString),
        ("\u{FEFF}" + base + "}", .expectedObject),
    ]

    @Test(arguments: rejected)
    func rejects(body: String, reason: WireJSONError.Reason) {
        #expect(throws: WireJSONError.self) { try WireBodies.TokenizeResponse(wireJSON: Data(body.utf8)) }
        do {
            _ = try WireBodies.TokenizeResponse(wireJSON: Data(body.utf8))
        } catch let error as WireJSONError {
            #expect(error.reason == reason, "\(body)")
            #expect(!error.description.contains("\"t\""), "errors never quote the body")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0xAF],
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xC3], [0xE2, 0x82], [0xE2, 0x28, 0xA1], [0x80], [0xF0, 0x9F, 0x98],
    ]

    @Test(arguments: invalidUTF8)
    func rejectsInvalidUTF8InValuesAndInSkippedFields(bytes: [UInt8]) {
        let inValue = Array(#"{"value":"a"#.utf8) + bytes + Array(#""}"#.utf8)
        let inSkipped = Array(#"{"value":"a","x":[""#.utf8) + bytes + Array(#""]}"#.utf8)
        for body in [inValue, inSkipped] {
            #expect(throws: WireJSONError(.invalidUTF8, at: body.count - bytes.count - (body == inValue ? 2 : 3))) {
                try WireBodies.TokenizeRequest(wireJSON: Data(body))
            }
            #expect((try? JSONSerialization.jsonObject(with: Data(body))) == nil)
        }
    }

    @Test func nestingIsLimitedAsJSONDecoderLimitsIt() throws {
        func body(depth: Int) -> Data {
            // The body's object is level 1, so the unknown field nests depth - 1 arrays.
            Data((#"{"value":"v","x":"# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}").utf8)
        }
        #expect(try WireBodies.TokenizeRequest(wireJSON: body(depth: WireJSONReader.maximumDepth)).value == "v")
        #expect(throws: WireJSONError.self) { try WireBodies.TokenizeRequest(wireJSON: body(depth: WireJSONReader.maximumDepth + 1)) }
        #expect(throws: WireJSONError.self) { try WireBodies.TokenizeRequest(wireJSON: body(depth: 100_000)) }
    }

    @Test func integersAreReadAsTheWireWritesThem() throws {
        func summary(_ count: String) throws -> WireBodies.BatchTokenizeResponse {
            try WireBodies.BatchTokenizeResponse(
                wireJSON: Data(#"{"results":[],"summary":{"processedCount":\#(count),"existingCount":0,"newlyCreatedCount":0}}"#.utf8))
        }
        #expect(try summary("9223372036854775807").summary.processedCount == Int.max)
        #expect(try summary("-0").summary.processedCount == 0)
        // Out of range, and (stricter than JSONDecoder, which takes integral values in any form) not integers as written.
        for text in ["9223372036854775808", "-9223372036854775809", "1.0", "1e2", "1E0", "\"1\"", "true", "00"] {
            #expect(throws: WireJSONError.self, "\(text)") { try summary(text) }
        }
        let envelope = #"{"v":1,"rid":"r","ts":-9223372036854775808,"salt":"","iv":"","ct":""}"#
        #expect(try WireBodies.EnvelopeRequest(wireJSON: Data(envelope.utf8)).ts == .min)
    }

    // MARK: Base64

    @Test func base64MatchesFoundationForEveryLength() throws {
        var generator = SplitMix64(seed: 18)
        for count in 0..<200 {
            let bytes = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            var written: [UInt8] = []
            bytes.withUnsafeBytes { WireBase64.encode($0, appendingTo: &written) }
            #expect(String(decoding: written, as: UTF8.self) == bytes.base64EncodedString())
            #expect(written.withUnsafeBytes { WireBase64.decode($0) } == bytes)
        }
        // Every byte value in every position of a group.
        for value in 0...255 {
            for position in 0..<3 {
                var bytes = Data([0x5A, 0xA5, 0x0F])
                bytes[position] = UInt8(value)
                let text = Array(bytes.base64EncodedString().utf8)
                #expect(text.withUnsafeBytes { WireBase64.decode($0) } == bytes)
            }
        }
    }

    @Test func base64OfEveryByteAndCharacterInEveryLaneOfTheEightAtATimePath() {
        for value in 0...255 {
            for position in 0..<24 {
                var bytes = Data((0..<24).map { UInt8($0 * 11) })
                bytes[position] = UInt8(value)
                var written: [UInt8] = []
                bytes.withUnsafeBytes { WireBase64.encode($0, appendingTo: &written) }
                #expect(String(decoding: written, as: UTF8.self) == bytes.base64EncodedString())
                #expect(written.withUnsafeBytes { WireBase64.decode($0) } == bytes)
            }
            // Any byte that is not in the alphabet, in any of the first 16 characters, is refused.
            let isAlphabet = (65...90).contains(value) || (97...122).contains(value) || (48...57).contains(value) || value == 43 || value == 47
            for position in 0..<16 {
                var text = Array("QUJDREVGR0hJSktMTU5PUFFS".utf8)
                text[position] = UInt8(value)
                let decoded = text.withUnsafeBytes { WireBase64.decode($0) }
                #expect((decoded != nil) == isAlphabet, "byte \(value) at \(position)")
            }
        }
    }

    @Test(arguments: [
        "QUI", "QUJD=", "QUJ", "QR==", "QUJ=", "QUI==", "AA=A", "QUJD====", "=AAA", "QU=I", "Q===", "====", "QU I", "QUI\n", "QUJ-", "QUJ_",
        "QU\u{0}I",
    ])
    func nonCanonicalBase64IsRejected(text: String) {
        #expect(Array(text.utf8).withUnsafeBytes { WireBase64.decode($0) } == nil)
        let body = #"{"itp":"\#(text)","itv":"AA=="}"#
        #expect(WireBase64.decode(text) == nil)
        let read = try? WireBodies.CleverTapEnvelopeResponse(wireJSON: Data(body.utf8))
        #expect(read.flatMap { WireBase64.decode($0.itp) } == nil)
    }

    // MARK: Differential

    /// Generated bodies, mutated byte by byte, read by this reader and by Foundation.
    ///
    /// Foundation's JSONDecoder is lazier than RFC 8259 in what it does not decode (it
    /// takes invalid escapes and invalid UTF-8 in skipped fields), so the
    /// reference for "valid" is JSONDecoder and JSONSerialization both accepting. Where
    /// this reader accepts, both do, with the same values; where both accept and it
    /// rejects, it is one of its documented stricter rules (a key twice, a comma before
    /// `}`, an integer with a fraction or exponent).
    @Test func agreesWithFoundationOnGeneratedBodies() throws {
        var generator = SplitMix64(seed: 0x5EED)
        var accepted = 0
        var rejected = 0
        for round in 0..<6000 {
            var body = Array(Self.generatedResponse(using: &generator).utf8)
            if round % 3 != 0 { Self.mutate(&body, using: &generator) }
            let data = Data(body)
            let text = String(decoding: body, as: UTF8.self)
            let decoded = try? JSONDecoder().decode(WireBodies.BatchTokenizeResponse.self, from: data)
            let parses = (try? JSONSerialization.jsonObject(with: data)) != nil
            switch Result(catching: { try WireBodies.BatchTokenizeResponse(wireJSON: data) }) {
            case .success(let read):
                #expect(read == decoded, "JSONDecoder reads otherwise: \(text)")
                #expect(parses, "JSONSerialization rejects: \(text)")
                accepted += 1
            case .failure(let error):
                rejected += 1
                guard decoded != nil, parses else { break }
                let reason = (error as? WireJSONError)?.reason
                let offset = (error as? WireJSONError)?.offset ?? 0
                let trailingComma = reason == .expectedKey && offset < body.count && body[offset] == UInt8(ascii: "}")
                let notPlainInteger = reason == .expectedInteger && body.contains { [0x2E, 0x45, 0x65].contains($0) }
                let explained = reason == .duplicateKey || trailingComma || notPlainInteger
                #expect(explained, "rejected what Foundation accepts (\(error)): \(text)")
            }
        }
        #expect(accepted > 1500 && rejected > 1500, "the generator must produce both")
    }

    @Test func foundationsLeniencyIsNotCopied() throws {
        // JSONDecoder takes each of these (it does not check what it skips); RFC 8259 does not.
        for body in [#"{"value":"a","x":"\,"}"#, #"{"value":"a","x":0-}"#, #"{"value":"a","x":"\ud800"}"#] {
            #expect((try? JSONSerialization.jsonObject(with: Data(body.utf8))) == nil, "\(body)")
            #expect(throws: WireJSONError.self, "\(body)") { try WireBodies.TokenizeRequest(wireJSON: Data(body.utf8)) }
        }
        // Both JSONDecoder and JSONSerialization take a comma before `}`; RFC 8259 does not.
        #expect(throws: WireJSONError(.expectedKey, at: 13)) { try WireBodies.TokenizeRequest(wireJSON: Data(#"{"value":"a",}"#.utf8)) }
    }

    private static let characters: [String] = [
        "a", "Z", "0", " ", "é", "Ж", "漢", "🙂", "𝄞", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\b", "\\f", "\\r", "\\u0000", "\\u001F",
        "\\u00e9", "\\u0416", "\\ud83d\\ude42", "\\uD834\\uDD1E", "/", "'", "\u{7F}", "\u{2028}",
    ]

    private static func generatedString(using generator: inout SplitMix64) -> String {
        "\"" + (0..<Int.random(in: 0...6, using: &generator)).map { _ in characters.randomElement(using: &generator)! }.joined() + "\""
    }

    private static func generatedUnknownValue(depth: Int, using generator: inout SplitMix64) -> String {
        switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &generator) {
        case 0: return generatedString(using: &generator)
        case 1: return ["0", "-1", "12.5", "1e10", "-0.0E-2", "12345678901234567890"].randomElement(using: &generator)!
        case 2: return ["true", "false"].randomElement(using: &generator)!
        case 3: return "null"
        case 4: return "[]"
        case 5:
            return "["
                + (0..<Int.random(in: 1...3, using: &generator)).map { _ in generatedUnknownValue(depth: depth + 1, using: &generator) }
                .joined(separator: ",") + "]"
        default:
            return "{"
                + (0..<Int.random(in: 0...2, using: &generator)).map { "\"k\($0)\":" + generatedUnknownValue(depth: depth + 1, using: &generator) }
                .joined(separator: ",") + "}"
        }
    }

    private static func generatedItem(using generator: inout SplitMix64) -> String {
        var members = [
            "\"originalValue\":" + generatedString(using: &generator), "\"token\":" + generatedString(using: &generator),
            "\"exists\":\(Bool.random(using: &generator))", "\"newlyCreated\":\(Bool.random(using: &generator))",
        ]
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: members.append("\"dataType\":" + generatedString(using: &generator))
        case 1: members.append("\"dataType\":null")
        default: break
        }
        if Bool.random(using: &generator) { members.append("\"extra\":" + generatedUnknownValue(depth: 2, using: &generator)) }
        members.shuffle(using: &generator)
        let space = [" ", "", "\n", "\t"].randomElement(using: &generator)!
        return "{" + members.joined(separator: "," + space) + "}"
    }

    private static func generatedResponse(using generator: inout SplitMix64) -> String {
        let items = (0..<Int.random(in: 0...3, using: &generator)).map { _ in generatedItem(using: &generator) }
        let counts = (0..<3).map { _ in String(Int.random(in: 0...5, using: &generator)) }
        let summary = #"{"processedCount":\#(counts[0]),"existingCount":\#(counts[1]),"newlyCreatedCount":\#(counts[2])}"#
        return #"{"results":[\#(items.joined(separator: ","))], "summary":\#(summary)}"#
    }

    private static func mutate(_ body: inout [UInt8], using generator: inout SplitMix64) {
        let interesting: [UInt8] = [0x22, 0x5C, 0x2C, 0x3A, 0x7B, 0x7D, 0x5B, 0x5D, 0x00, 0x0A, 0x80, 0xC3, 0xED, 0xFF, 0x31, 0x2E, 0x2D, 0x75]
        for _ in 0..<Int.random(in: 1...2, using: &generator) {
            guard !body.isEmpty else { return }
            let index = Int.random(in: 0..<body.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: body.remove(at: index)
            case 1: body.insert(interesting.randomElement(using: &generator)!, at: index)
            case 2: body[index] = interesting.randomElement(using: &generator)!
            default: body.removeLast(Int.random(in: 0...min(3, body.count), using: &generator))
            }
        }
    }
}
