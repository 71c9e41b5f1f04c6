import Foundation
import Testing
import ZeroPiiCrypto
import ZeroPiiModels
import ZeroPiiWire

@testable import ZeroPiiMockServer

/// Strict Base64 for envelopes and access tokens, and the `rid` format.
struct StrictInputTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

    /// The same bytes in a non-canonical spelling: the lowest unused bit of the last
    /// character set, which a lenient decoder throws away.
    static func withPaddingBitSet(_ base64: String) -> String {
        var characters = Array(base64)
        let last = characters.lastIndex { $0 != "=" }!
        let value = alphabet.firstIndex(of: characters[last])!
        characters[last] = alphabet[value | 1]
        return String(characters)
    }

    @Test func canonicalBase64DecodesLikeFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Data(bytes).base64EncodedString()
            #expect(StrictBase64.decode(encoded) == Data(bytes), "length \(length)")
            let url = AccessTokenIssuer.base64URL(bytes)
            #expect(StrictBase64.decodeURL(url) == bytes, "length \(length)")
        }
    }

    @Test(arguments: [
        "AB==", "AA=A", "QUJD====", "QUJD=", "QUI", "QUI==", "Q===", "QUJ D", "QUJD\n", " QUJD", "QU=D", "QUJDRA=", "QUJDRB==", "QUJDRE=",
        "QUJ-", "QUJ_", "QUJ\u{00C9}", "=QUJ", "====",
    ])
    func nonCanonicalStandardBase64IsRejected(text: String) {
        #expect(StrictBase64.decode(text) == nil, "\(text)")
    }

    @Test(arguments: ["QUJ+", "QUJ/", "QUI=", "QUJD", "AA==", ""])
    func canonicalStandardBase64IsAccepted(text: String) {
        #expect(StrictBase64.decode(text) == Data(base64Encoded: text), "\(text)")
    }

    @Test(arguments: ["QUI=", "QUI", "Q", "QUJ", "QUJ+", "QUJ/", "QUJDR", "QU J"])
    func nonCanonicalURLBase64IsRejected(text: String) {
        // "QUI" is canonical ("AB"), "QUJ" is not: its unused bits are set.
        #expect((StrictBase64.decodeURL(text) == nil) == (text != "QUI"), "\(text)")
    }

    @Test(arguments: [
        ("3f2b8c1e-7d4a-4e9b-a1c2-5d6e7f8a9b0c", true),
        ("3F2B8C1E-7D4A-4E9B-A1C2-5D6E7F8A9B0C", false),
        ("3f2b8c1e7d4a4e9ba1c25d6e7f8a9b0c", false),
        ("3f2b8c1e-7d4a-4e9b-a1c2-5d6e7f8a9b0", false),
        ("3f2b8c1e-7d4a-4e9b-a1c2-5d6e7f8a9b0c0", false),
        ("3f2b8c1e_7d4a-4e9b-a1c2-5d6e7f8a9b0c", false),
        ("3f2b8c1e-7d4a-4e9b-a1c2-5d6e7f8a9b0g", false),
        ("", false),
        ("e\u{301}" + String(repeating: "\u{301}", count: 40), false),
    ])
    func requestIDsAreLowercaseUUIDs(text: String, valid: Bool) {
        #expect(RequestID.isValid(text) == valid)
    }

    // MARK: Against the server

    static func post(_ server: MockTokenizationServer, _ path: String, headers: [String] = [], body: Data) throws -> (status: Int, body: String) {
        let client = try RawClient(port: server.port)
        let head = (["POST \(path) HTTP/1.1", "Host: x", "Content-Length: \(body.count)"] + headers).joined(separator: "\r\n") + "\r\n\r\n"
        client.send(Data(head.utf8) + body)
        let response = try #require(client.readResponse())
        return (response.status, response.body)
    }

    static func envelopeBody(token: String, requestID: String, mutate: (inout WireBodies.EnvelopeRequest) -> Void = { _ in }) throws -> Data {
        let ts = Int64(Date().timeIntervalSince1970)
        let envelope = PayloadEnvelope(accessToken: token, operation: "tokenize", requestID: requestID, timestamp: ts)
        let payload = try envelope.sealRequest(try JSONEncoder().encode(WireBodies.TokenizeRequest(value: "bob@example.com")))
        // 27 bytes of JSON and a 16-byte tag: 43 bytes, so the last character of `ct` has unused bits.
        var wire = WireBodies.EnvelopeRequest(
            v: 1, rid: requestID, ts: ts, salt: envelope.salt.base64EncodedString(), iv: payload.iv.base64EncodedString(),
            ct: payload.ciphertext.base64EncodedString())
        mutate(&wire)
        return try JSONEncoder().encode(wire)
    }

    @Test func envelopesWithNonCanonicalBase64OrABadRequestIDGet400() throws {
        let server = try MockTokenizationServer()
        defer { server.stop() }
        let token = server.issueAccessToken()
        let headers = ["Authorization: Bearer \(token)", "X-ZeroPii-Encryption: v1"]
        let path = "/ct-vault/api/v2/tokenize"
        // The genuine envelope is accepted, so each rejection below is the mutation's doing.
        let genuine = try Self.post(
            server, path, headers: headers, body: try Self.envelopeBody(token: token, requestID: UUID().uuidString.lowercased()))
        #expect(genuine.status == 200)

        let mutations: [(String, (inout WireBodies.EnvelopeRequest) -> Void)] = [
            ("salt padding bits", { $0.salt = Self.withPaddingBitSet($0.salt) }),
            ("ct padding bits", { $0.ct = Self.withPaddingBitSet($0.ct) }),
            ("salt without padding", { $0.salt = String($0.salt.dropLast()) }),
            ("iv with extra padding", { $0.iv += "====" }),
            ("ct with a line break", { $0.ct.insert("\n", at: $0.ct.index($0.ct.startIndex, offsetBy: 4)) }),
            ("uppercase rid", { $0.rid = $0.rid.uppercased() }),
            ("rid not a UUID", { $0.rid = "request-1" }),
            ("rid of one huge grapheme", { $0.rid = "e" + String(repeating: "\u{301}", count: 100_000) }),
        ]
        for (name, mutation) in mutations {
            let body = try Self.envelopeBody(token: token, requestID: UUID().uuidString.lowercased(), mutate: mutation)
            let response = try Self.post(server, path, headers: headers, body: body)
            #expect(response.status == 400, "\(name)")
            #expect(response.body.contains("invalid_envelope"), "\(name)")
        }
    }

    @Test func accessTokensWithNonCanonicalBase64AreRejected() throws {
        let server = try MockTokenizationServer()
        defer { server.stop() }
        let token = server.issueAccessToken()
        let body = Data(#"{"value":"alice@example.com"}"#.utf8)
        let path = "/ct-vault/api/v2/tokenize"
        #expect(try Self.post(server, path, headers: ["Authorization: Bearer \(token)"], body: body).status == 200)
        // The 16-byte tag is 22 characters with 4 unused bits; set one, or pad it.
        let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var characters = Array(token)
        characters[characters.count - 1] = urlAlphabet[urlAlphabet.firstIndex(of: characters.last!)! | 1]
        for variant in [String(characters), token + "==", token + "\n"] {
            let response = try Self.post(server, path, headers: ["Authorization: Bearer \(variant)"], body: body)
            #expect(response.status == (variant.hasSuffix("\n") ? 400 : 401))
        }
    }
}
