import Foundation
import Testing
import ZeroPiiCrypto
import ZeroPiiTestSupport
import ZeroPiiWire

@testable import ZeroPiiSDK

/// The CleverTap-compatible profile (Docs/Protocol.md, section 9) through the whole pipeline,
/// against the in-test server.
struct CleverTapProfileTests {
    private static func envelope(of request: TransportRequest) throws -> WireBodies.CleverTapEnvelopeRequest {
        try JSONDecoder().decode(WireBodies.CleverTapEnvelopeRequest.self, from: request.body)
    }

    private static func isEncrypted(_ request: TransportRequest) -> Bool {
        request.header("Encrypted") == "true"
    }

    @Test func theRequestIsTheAndroidEnvelopeAndTheAnswerOpensWithItsKey() async throws {
        let server = InTestServer()
        let client = makeClient(server: server, wireProfile: .cleverTapCompatible)
        let result = await client.tokenize("alice@example.com")
        #expect(result.isSuccess && result.token == InTestServer.token(for: "alice@example.com"))

        let request = try #require(server.requests.first)
        #expect(request.header("Encrypted") == "true")
        #expect(request.header("X-ZeroPii-Encryption") == nil)
        #expect(request.header("Authorization") == "Bearer secret-access-token-1")
        let fields = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: String])
        #expect(Set(fields.keys) == ["itp", "itk", "itv"])
        let key = try #require(Data(base64Encoded: fields["itk"]!))
        let iv = try #require(Data(base64Encoded: fields["itv"]!))
        let sealed = try #require(Data(base64Encoded: fields["itp"]!))
        #expect(key.count == 32 && iv.count == 12)
        // Standard, padded Base64 without line breaks, as java.util.Base64's encoder writes it.
        #expect(fields["itk"] == key.base64EncodedString() && fields["itv"] == iv.base64EncodedString())
        #expect(fields["itp"] == sealed.base64EncodedString())
        let plaintext = try AES.GCM.open(AES.GCM.SealedBox(combined: iv + sealed), using: SymmetricKey(data: key))
        #expect(try JSONDecoder().decode(WireBodies.TokenizeRequest.self, from: plaintext) == .init(value: "alice@example.com"))
        #expect(!String(decoding: request.body, as: UTF8.self).contains("alice"))
    }

    @Test func everyAttemptHasAFreshKeyAndIV() async throws {
        let server = InTestServer()
        server.script(status: 503)
        let client = makeClient(server: server, wireProfile: .cleverTapCompatible)
        #expect(await client.tokenize("v").isSuccess)
        #expect(await client.batchTokenize(["v", "w"]).isSuccess)
        #expect(await client.tokenize("v").isSuccess)
        let envelopes = try server.requests.map(Self.envelope(of:))
        #expect(envelopes.count == 4)
        #expect(Set(envelopes.map(\.itk)).count == 4)
        #expect(Set(envelopes.map(\.itv)).count == 4)
        #expect(Set(server.requests.compactMap { $0.header("X-Request-ID") }).count == 4)
    }

    @Test func a419IsAnErrorResultAndNothingIsSentInPlaintextByDefault() async throws {
        let server = InTestServer()
        server.script(status: 419, code: "decryption_failed")
        server.script(status: 419, code: "decryption_failed")
        let client = makeClient(server: server, wireProfile: .cleverTapCompatible)
        let single = await client.tokenize("alice@example.com")
        #expect(!single.isSuccess && single.httpStatusCode == 419 && single.errorKind == .configuration)
        let batch = await client.batchTokenize(["alice@example.com"])
        #expect(!batch.isSuccess && batch.httpStatusCode == 419)
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy(Self.isEncrypted))
    }

    @Test func withTheOptInOnlyThatRequestIsSentOnceInPlaintext() async throws {
        let server = InTestServer()
        let log = CapturedLog()
        server.script(status: 419, code: "decryption_failed")
        let client = makeClient(server: server, wireProfile: .cleverTapCompatible, log: log) { $0.allowsPlaintextFallback = true }
        let first = await client.tokenize("alice@example.com")
        #expect(first.isSuccess && first.token == InTestServer.token(for: "alice@example.com"))
        try #require(server.requests.count == 2)
        #expect(Self.isEncrypted(server.requests[0]))
        let plain = server.requests[1]
        #expect(!Self.isEncrypted(plain) && plain.header("X-ZeroPii-Encryption") == nil)
        #expect(try JSONDecoder().decode(WireBodies.TokenizeRequest.self, from: plain.body).value == "alice@example.com")
        #expect(plain.header("X-Request-ID") != server.requests[0].header("X-Request-ID"))
        #expect(log.all.contains { $0.contains("HTTP 419") && $0.contains("once more as plaintext") })

        // The next request is encrypted again.
        #expect(await client.batchTokenize(["bob@example.com"]).isSuccess)
        #expect(server.requests.count == 3 && Self.isEncrypted(server.requests[2]))

        // Once only: a 419 to the plaintext request too is the result.
        server.script(status: 419, code: "decryption_failed")
        server.script(status: 419, code: "decryption_failed")
        let twice = await client.tokenize("carol@example.com")
        #expect(!twice.isSuccess && twice.httpStatusCode == 419)
        try #require(server.requests.count == 5)
        #expect(Self.isEncrypted(server.requests[3]) && !Self.isEncrypted(server.requests[4]))
    }

    @Test func theOptInChangesNothingForOtherStatusesOrProfiles() async throws {
        for profile in [ZeroPiiWireProfile.protocolV1, .plaintext] {
            let server = InTestServer()
            server.script(status: 419, code: "decryption_failed")
            let client = makeClient(server: server, wireProfile: profile) { $0.allowsPlaintextFallback = true }
            #expect(await client.tokenize("v").httpStatusCode == 419, "\(profile)")
            #expect(server.requests.count == 1, "\(profile)")
        }
        let server = InTestServer()
        server.script(status: 400, code: "bad_envelope")
        let client = makeClient(server: server, wireProfile: .cleverTapCompatible) { $0.allowsPlaintextFallback = true }
        #expect(await client.tokenize("v").httpStatusCode == 400)
        #expect(server.requests.count == 1)
    }

    @Test func aTamperedOrMissingResponseEnvelopeIsAnErrorResult() async throws {
        func answering(_ alter: @escaping @Sendable (WireBodies.CleverTapEnvelopeResponse) -> Data) async -> TokenizeResult {
            let server = InTestServer()
            server.script { request in
                let genuine = server.handleUnscripted(request)
                let wire = try! JSONDecoder().decode(WireBodies.CleverTapEnvelopeResponse.self, from: genuine.body)
                return TransportResponse(statusCode: 200, headers: genuine.headers, body: alter(wire))
            }
            return await makeClient(server: server, wireProfile: .cleverTapCompatible).tokenize("alice@example.com")
        }
        @Sendable func flippingFirstByte(of base64: String) -> String {
            var bytes = Data(base64Encoded: base64)!
            bytes[bytes.startIndex] ^= 0x01
            return bytes.base64EncodedString()
        }
        let tampered = await answering { wire in
            try! JSONEncoder().encode(WireBodies.CleverTapEnvelopeResponse(itp: flippingFirstByte(of: wire.itp), itv: wire.itv))
        }
        #expect(!tampered.isSuccess && tampered.token == nil)
        #expect(tampered.errorMessage == "the response could not be decrypted" && tampered.errorKind == .invalidResponse)

        let otherIV = await answering { wire in
            try! JSONEncoder().encode(WireBodies.CleverTapEnvelopeResponse(itp: wire.itp, itv: flippingFirstByte(of: wire.itv)))
        }
        #expect(otherIV.errorMessage == "the response could not be decrypted")

        let notBase64 = await answering { wire in
            try! JSONEncoder().encode(WireBodies.CleverTapEnvelopeResponse(itp: "not base64!", itv: wire.itv))
        }
        #expect(notBase64.errorMessage == "the response could not be decrypted")

        // The plain answer a server might fall back to: rejected, never read.
        let downgraded = await answering { _ in
            try! JSONEncoder().encode(WireBodies.TokenizeResponse(token: "t", exists: false, newlyCreated: true, dataType: "string"))
        }
        #expect(!downgraded.isSuccess && downgraded.token == nil)
        #expect(downgraded.errorMessage == RequestFailure.downgradedResponse.message)
    }

    @Test func noKeyValueOrTokenInAnyLogLineAtDebug() async throws {
        let server = InTestServer()
        let log = CapturedLog()
        server.script(status: 503)
        server.script(status: 419, code: "decryption_failed")
        let values = ["alice@example.com", "+1 (555) 010-2345"]
        let client = makeClient(server: server, wireProfile: .cleverTapCompatible, log: log) { $0.allowsPlaintextFallback = true }
        #expect(await client.tokenize(values[0]).isSuccess)
        #expect(await client.batchTokenize(values).isSuccess)
        let lines = log.all
        #expect(lines.count >= 6)
        var secrets = values + values.map(InTestServer.token(for:)) + ["secret-access-token"]
        for request in server.requests where Self.isEncrypted(request) {
            let wire = try Self.envelope(of: request)
            secrets += [wire.itk, wire.itv, String(wire.itp.prefix(16))]
        }
        for line in lines {
            for secret in secrets { #expect(!line.contains(secret), "\(line)") }
        }
    }
}
