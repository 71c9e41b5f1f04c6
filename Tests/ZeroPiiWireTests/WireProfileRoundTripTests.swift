import Foundation
import Testing
import ZeroPiiModels
import ZeroPiiWire

/// Each profile's client half against its server half: what the SDK seals, the mock
/// server opens, and what the server seals, the SDK opens; and each half refuses what the
/// protocol says it must.
struct WireProfileRoundTripTests {
    private static let accessToken = "access-token-for-round-trips"
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    private static func attempt(_ operation: TokenizationOperation = .batchTokenize) -> WireAttempt {
        WireAttempt(operation: operation, requestID: RequestID.make(), accessToken: accessToken, now: now)
    }

    private static func incoming(
        _ sealed: SealedWireRequest, operation: TokenizationOperation = .batchTokenize, accessToken: String = accessToken,
        now: Date = now, claim: @escaping @Sendable (String, Int64) -> IncomingWireRequest.Claim = { _, _ in .claimed }
    ) -> IncomingWireRequest {
        IncomingWireRequest(body: sealed.body, accessToken: accessToken, operation: operation, now: now, claimRequestID: claim)
    }

    private static let requestBody = Data(#"{"values":["ana@example.com","Анна Петрова"]}"#.utf8)
    private static let answerBody = Data(#"{"results":[],"summary":{"processedCount":0,"existingCount":0,"newlyCreatedCount":0}}"#.utf8)

    @Test(arguments: ZeroPiiWireProfile.allCases)
    func whatTheClientSealsTheServerOpensAndBack(name: ZeroPiiWireProfile) throws {
        let client = name.makeImplementation()
        let sealed = try client.sealRequest(Self.requestBody, for: Self.attempt())
        #expect(client.name == name)
        // The server tells the profile from the headers alone.
        #expect(try ZeroPiiWireProfile.named(byRequestHeader: { sealed.headers[$0] }).get() == name)
        if name != .plaintext { #expect(sealed.body != Self.requestBody) }

        let server = name.makeImplementation()
        let opened = try server.openRequest(Self.incoming(sealed)).get()
        #expect(opened.body == Self.requestBody)
        let answer = try opened.sealResponse(Self.answerBody, false).get()
        let headers = Dictionary(uniqueKeysWithValues: answer.headers.map { ($0.name, $0.value) })
        #expect(sealed.openResponse(answer.body, { headers[$0] }) == .success(Self.answerBody))
    }

    @Test(arguments: [ZeroPiiWireProfile.protocolV1, .cleverTapCompatible])
    func aCorruptedOrPlainAnswerIsNeverUsed(name: ZeroPiiWireProfile) throws {
        let profile = name.makeImplementation()
        let sealed = try profile.sealRequest(Self.requestBody, for: Self.attempt())
        let opened = try profile.openRequest(Self.incoming(sealed)).get()
        let corrupted = try opened.sealResponse(Self.answerBody, true).get()
        let headers = Dictionary(uniqueKeysWithValues: corrupted.headers.map { ($0.name, $0.value) })
        #expect(sealed.openResponse(corrupted.body, { headers[$0] }) == .failure(.undecryptable))
        // The plain JSON answer, as a server that dropped the encryption sends it.
        #expect(sealed.openResponse(Self.answerBody, { _ in nil }) == .failure(.downgraded))
        // The answer to another request of the same profile.
        let other = try profile.sealRequest(Self.requestBody, for: Self.attempt())
        let otherAnswer = try profile.openRequest(Self.incoming(other)).get().sealResponse(Self.answerBody, false).get()
        let otherHeaders = Dictionary(uniqueKeysWithValues: otherAnswer.headers.map { ($0.name, $0.value) })
        #expect(sealed.openResponse(otherAnswer.body, { otherHeaders[$0] }) == .failure(.undecryptable))
    }

    @Test func thePlaintextClientRejectsAnEnvelope() throws {
        let sealed = try PlaintextProfile().sealRequest(Self.requestBody, for: Self.attempt())
        #expect(sealed.openResponse(Self.answerBody, { $0 == "X-ZeroPii-Encryption" ? "v1" : nil }) == .failure(.unreadable))
        #expect(sealed.openResponse(Self.answerBody, { _ in nil }) == .success(Self.answerBody))
    }

    @Test func theV1ServerChecksOperationTokenTimeAndRequestID() throws {
        let profile = ProtocolV1Profile()
        let sealed = try profile.sealRequest(Self.requestBody, for: Self.attempt(.batchTokenize))
        func rejection(_ request: IncomingWireRequest) -> WireRejection? {
            if case .failure(let rejection) = profile.openRequest(request) { return rejection }
            return nil
        }
        #expect(rejection(Self.incoming(sealed, operation: .tokenize))?.code == .decryptionFailed)
        #expect(rejection(Self.incoming(sealed, accessToken: "another-token"))?.status == 419)
        #expect(rejection(Self.incoming(sealed, now: Self.now.addingTimeInterval(301)))?.code == .staleRequest)
        #expect(rejection(Self.incoming(sealed, now: Self.now.addingTimeInterval(-300))) == nil)
        #expect(
            rejection(Self.incoming(sealed, claim: { _, _ in .alreadyUsed }))
                == WireRejection(409, .replayedRequest, "this request id was already used"))
        #expect(
            rejection(Self.incoming(sealed, claim: { _, _ in .beyondMemory }))
                == WireRejection(400, .staleRequest, "the request time is older than the server's record of request ids"))
        #expect(
            rejection(
                IncomingWireRequest(
                    body: Self.requestBody, accessToken: Self.accessToken, operation: .tokenize, now: Self.now, claimRequestID: { _, _ in .claimed }))?
                .code
                == .invalidEnvelope)
    }

    @Test func theV1ServerClaimsTheRequestIDOnlyAfterTheEnvelopeOpens() throws {
        let profile = ProtocolV1Profile()
        let sealed = try profile.sealRequest(Self.requestBody, for: Self.attempt())
        let claims = ClaimLog()
        _ = profile.openRequest(Self.incoming(sealed, accessToken: "forged", claim: { claims.record($0, $1) }))
        #expect(claims.ids.isEmpty)
        _ = profile.openRequest(Self.incoming(sealed, claim: { claims.record($0, $1) }))
        #expect(claims.ids.count == 1 && RequestID.isValid(claims.ids[0]))
        // The time the claim is made with is the envelope's, the one its tag covers.
        #expect(claims.timestamps == [Int64(Self.now.timeIntervalSince1970)])
    }

    @Test func theCleverTapServerRefusesBadFieldsAndUnopenableCiphertext() throws {
        let profile = CleverTapProfile(allowsPlaintextFallback: false)
        let sealed = try profile.sealRequest(Self.requestBody, for: Self.attempt())
        var wire = try WireBodies.CleverTapEnvelopeRequest(wireJSON: sealed.body)
        wire.itk = Data(count: 32).base64EncodedString()
        let wrongKey = SealedWireRequest(body: try JSONEncoder().encode(wire), headers: sealed.headers, openResponse: sealed.openResponse)
        #expect(profile.openRequest(Self.incoming(wrongKey)).failure?.code == .decryptionFailed)
        wire.itk = Data(count: 16).base64EncodedString()
        let shortKey = SealedWireRequest(body: try JSONEncoder().encode(wire), headers: sealed.headers, openResponse: sealed.openResponse)
        #expect(
            profile.openRequest(Self.incoming(shortKey)).failure
                == WireRejection(400, .invalidEnvelope, "an envelope field has the wrong size or encoding"))
    }

    @Test func onlyTheCleverTapProfileWithTheOptInFallsBackAndOnlyAfter419() {
        #expect(CleverTapProfile(allowsPlaintextFallback: true).fallback(afterStatus: 419)?.name == .plaintext)
        #expect(CleverTapProfile(allowsPlaintextFallback: true).fallback(afterStatus: 400) == nil)
        #expect(CleverTapProfile(allowsPlaintextFallback: false).fallback(afterStatus: 419) == nil)
        #expect(ProtocolV1Profile().fallback(afterStatus: 419) == nil)
        #expect(PlaintextProfile().fallback(afterStatus: 419) == nil)
    }

    @Test func theServerNamesTheProfileFromTheHeadersOrRefuses() throws {
        func named(_ headers: [String: String]) -> Result<ZeroPiiWireProfile, WireRejection> {
            ZeroPiiWireProfile.named(byRequestHeader: { headers[$0] })
        }
        #expect(try named([:]).get() == .plaintext)
        #expect(try named(["X-ZeroPii-Encryption": "v1"]).get() == .protocolV1)
        #expect(try named(["Encrypted": "TRUE"]).get() == .cleverTapCompatible)
        #expect(named(["X-ZeroPii-Encryption": "v2"]).failure?.code == .unsupportedEncryption)
        #expect(named(["Encrypted": "false"]).failure?.code == .unsupportedEncryption)
        #expect(named(["X-ZeroPii-Encryption": "v1", "Encrypted": "true"]).failure?.code == .unsupportedEncryption)
        #expect(PlaintextProfile().refusal.code == .encryptionRequired)
        #expect(ProtocolV1Profile().refusal.status == 419 && CleverTapProfile(allowsPlaintextFallback: false).refusal.status == 419)
        // Every refusal a client may read as a setup mismatch is a 400.
        for name in ZeroPiiWireProfile.allCases {
            let refusal = name.makeImplementation().refusal
            #expect(WireErrorCode.setupMismatches.contains(refusal.code) == (refusal.status == 400))
        }
    }
}

private final class ClaimLog: @unchecked Sendable {
    // Sendable: used from one test's thread only.
    private(set) var ids: [String] = []
    private(set) var timestamps: [Int64] = []
    func record(_ id: String, _ timestamp: Int64) -> IncomingWireRequest.Claim {
        ids.append(id)
        timestamps.append(timestamp)
        return .claimed
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
