import Foundation
import Testing
import ZeroPiiCrypto
import ZeroPiiModels

@testable import ZeroPiiMockServer

/// The server side of the CleverTap-compatible envelope (Docs/Protocol.md, section 9) and how
/// the server tells the three wire profiles apart.
struct CleverTapEnvelopeServerTests {
    let service: TokenizationService

    init() {
        var configuration = MockServerConfiguration()
        configuration.allowAnyToken = true
        configuration.adminEnabled = true
        service = TokenizationService(configuration: configuration, vault: TokenVault())
    }

    func respond(headers: [(String, String)], body: Data, path: String = "/ct-vault/api/v2/tokenize") -> ServerResponse? {
        let all = [("authorization", "Bearer any")] + headers.map { ($0.0.lowercased(), $0.1) }
        if case .respond(let response) = service.handle(ServerRequest(method: "POST", path: path, query: "", headers: all, body: body)) {
            return response
        }
        return nil
    }

    func errorCode(_ response: ServerResponse?) -> String? {
        response.flatMap { try? JSONDecoder().decode(WireBodies.ErrorResponse.self, from: $0.body) }?.error.code
    }

    /// A request body sealed as the Android SDK seals it, and its key.
    static func sealed(
        _ plaintext: Data, mutate: (inout WireBodies.CleverTapEnvelopeRequest) -> Void = { _ in }
    ) throws -> (body: Data, key: SymmetricKey) {
        let key = SymmetricKey(size: .bits256)
        let nonce = AES.GCM.Nonce()
        let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce)
        var wire = WireBodies.CleverTapEnvelopeRequest(
            itp: (box.ciphertext + box.tag).base64EncodedString(), itk: key.withUnsafeBytes { Data($0) }.base64EncodedString(),
            itv: Data(nonce).base64EncodedString())
        mutate(&wire)
        return (try JSONEncoder().encode(wire), key)
    }

    static func tokenizeBody(_ value: String) throws -> Data {
        try JSONEncoder().encode(WireBodies.TokenizeRequest(value: value))
    }

    @Test func anEnvelopedRequestIsAnsweredUnderItsOwnKey() throws {
        let (body, key) = try Self.sealed(try Self.tokenizeBody("alice@example.com"))
        let response = try #require(respond(headers: [("Encrypted", "true")], body: body))
        #expect(response.status == 200)
        #expect(!response.headers.contains { $0.0.lowercased() == "x-zeropii-encryption" })
        let wire = try JSONDecoder().decode(WireBodies.CleverTapEnvelopeResponse.self, from: response.body)
        #expect(StrictBase64.decode(wire.itp) != nil && StrictBase64.decode(wire.itv)?.count == 12)
        let plaintext = try AES.GCM.open(
            AES.GCM.SealedBox(combined: Data(base64Encoded: wire.itv)! + Data(base64Encoded: wire.itp)!), using: key)
        let answer = try JSONDecoder().decode(WireBodies.TokenizeResponse.self, from: plaintext)
        #expect(answer.token == service.vault.token(for: "alice@example.com") && answer.newlyCreated)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("\\/"))
        #expect(service.statistics.wireProfileCounts == [.cleverTapCompatible: 1])
    }

    @Test func theHeaderValueIsReadWithoutRegardToCase() throws {
        let (body, _) = try Self.sealed(try Self.tokenizeBody("v"))
        #expect(respond(headers: [("Encrypted", "TRUE")], body: body)?.status == 200)
    }

    @Test func nonCanonicalBase64OrWrongSizesGet400() throws {
        let plaintext = try Self.tokenizeBody("v")
        let mutations: [(String, (inout WireBodies.CleverTapEnvelopeRequest) -> Void)] = [
            ("key with a padding bit set", { $0.itk = StrictInputTests.withPaddingBitSet($0.itk) }),
            ("IV one character short", { $0.itv = String($0.itv.prefix(15)) }),
            ("ciphertext with a line break", { $0.itp.insert("\n", at: $0.itp.index($0.itp.startIndex, offsetBy: 4)) }),
            (
                "URL alphabet",
                {
                    $0.itk = Data(repeating: 0xFB, count: 32).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                        .replacingOccurrences(of: "/", with: "_")
                }
            ),
            ("16-byte key", { $0.itk = Data(count: 16).base64EncodedString() }),
            ("16-byte IV", { $0.itv = Data(count: 16).base64EncodedString() }),
            ("no tag", { $0.itp = Data(count: 15).base64EncodedString() }),
        ]
        for (name, mutate) in mutations {
            let (body, _) = try Self.sealed(plaintext, mutate: mutate)
            let response = respond(headers: [("Encrypted", "true")], body: body)
            #expect(response?.status == 400, "\(name)")
            #expect(errorCode(response) == "invalid_envelope", "\(name)")
        }
        let missing = respond(headers: [("Encrypted", "true")], body: Data(#"{"itp":"AAAA","itv":"AAAAAAAAAAAAAAAA"}"#.utf8))
        #expect(missing?.status == 400 && errorCode(missing) == "invalid_envelope")
    }

    @Test func aTamperedCiphertextOrAnotherKeyGets419() throws {
        let plaintext = try Self.tokenizeBody("alice@example.com")
        let tampered = try Self.sealed(plaintext) { wire in
            var bytes = Data(base64Encoded: wire.itp)!
            bytes[bytes.startIndex] ^= 1
            wire.itp = bytes.base64EncodedString()
        }
        let otherKey = try Self.sealed(plaintext) { $0.itk = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString() }
        for body in [tampered.body, otherKey.body] {
            let response = respond(headers: [("Encrypted", "true")], body: body)
            #expect(response?.status == 419 && errorCode(response) == "decryption_failed")
            #expect(String(decoding: response?.body ?? Data(), as: UTF8.self).contains("alice") == false)
        }
        #expect(service.vault.count == 0)
    }

    @Test func headersNameTheProfileAndOnlyOne() throws {
        let (body, _) = try Self.sealed(try Self.tokenizeBody("v"))
        let both = respond(headers: [("Encrypted", "true"), ("X-ZeroPii-Encryption", "v1")], body: body)
        #expect(both?.status == 400 && errorCode(both) == "unsupported_encryption")
        let unknown = respond(headers: [("Encrypted", "yes")], body: body)
        #expect(unknown?.status == 400 && errorCode(unknown) == "unsupported_encryption")
        let v2 = respond(headers: [("X-ZeroPii-Encryption", "v2")], body: body)
        #expect(v2?.status == 400 && errorCode(v2) == "unsupported_encryption")
        // The envelope sent without its header is not a tokenize request.
        let unmarked = respond(headers: [], body: body)
        #expect(unmarked?.status == 400 && errorCode(unmarked) == "invalid_json")
        #expect(service.statistics.wireProfileCounts == [.plaintext: 1])
    }

    @Test func faultsApplyToTheEnvelope() throws {
        let (body, key) = try Self.sealed(try Self.tokenizeBody("v"))
        service.faults.inject(.corruptCiphertext)
        let corrupted = try #require(respond(headers: [("Encrypted", "true")], body: body))
        let wire = try JSONDecoder().decode(WireBodies.CleverTapEnvelopeResponse.self, from: corrupted.body)
        #expect(throws: CryptoError.authenticationFailure) {
            try AES.GCM.open(AES.GCM.SealedBox(combined: Data(base64Encoded: wire.itv)! + Data(base64Encoded: wire.itp)!), using: key)
        }
        service.faults.inject(.downgrade)
        let downgraded = try #require(respond(headers: [("Encrypted", "true")], body: body))
        #expect(try JSONDecoder().decode(WireBodies.TokenizeResponse.self, from: downgraded.body).exists)
        service.faults.inject(.status(503, retryAfter: "2"))
        #expect(respond(headers: [("Encrypted", "true")], body: body)?.status == 503)
        #expect(service.statistics.wireProfileCounts == [.cleverTapCompatible: 3])
    }

    @Test func aServerToldToAcceptFewerProfilesRefusesTheOthers() throws {
        var configuration = MockServerConfiguration()
        configuration.allowAnyToken = true
        configuration.acceptedWireProfiles = [.cleverTapCompatible]
        let limited = TokenizationService(configuration: configuration, vault: TokenVault())
        func send(_ headers: [(String, String)], _ body: Data) -> ServerResponse? {
            let request = ServerRequest(
                method: "POST", path: "/ct-vault/api/v2/tokenize", query: "",
                headers: [("authorization", "Bearer any")] + headers.map { ($0.0.lowercased(), $0.1) }, body: body)
            if case .respond(let response) = limited.handle(request) { return response }
            return nil
        }
        let plain = send([], try Self.tokenizeBody("v"))
        #expect(plain?.status == 400 && errorCode(plain) == "encryption_required")
        let v1 = send([("X-ZeroPii-Encryption", "v1")], Data("{}".utf8))
        #expect(v1?.status == 419 && errorCode(v1) == "decryption_failed")
        #expect(send([("Encrypted", "true")], try Self.sealed(try Self.tokenizeBody("v")).body)?.status == 200)
        #expect(limited.vault.count == 1)
        #expect(limited.statistics.wireProfileCounts == [.plaintext: 1, .protocolV1: 1, .cleverTapCompatible: 1])
    }

    @Test func theAdminStatisticsCountEachProfile() throws {
        _ = respond(headers: [], body: try Self.tokenizeBody("v"))
        _ = respond(headers: [("Encrypted", "true")], body: try Self.sealed(try Self.tokenizeBody("w")).body)
        let request = ServerRequest(method: "GET", path: "/__admin/stats", query: "", headers: [], body: Data())
        guard case .respond(let response) = service.handle(request) else {
            Issue.record("no answer")
            return
        }
        let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(json["wireProfiles"] as? [String: Int] == ["clevertap": 1, "plaintext": 1])
    }
}
