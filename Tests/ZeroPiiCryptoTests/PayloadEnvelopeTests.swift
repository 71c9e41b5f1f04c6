import Foundation
import Testing

@testable import ZeroPiiCrypto

struct PayloadEnvelopeTests {
    static let token = "eyJhbGciOiJIUzI1NiJ9.test-access-token"
    static let requestID = "3f2b8c1e-7d4a-4e9b-a1c2-5d6e7f8a9b0c"
    static let salt = Data((0..<32).map { UInt8($0) })

    static func envelope(
        token: String = token, operation: String = "tokenize/batch", requestID: String = requestID, timestamp: Int64 = 1_764_489_600
    ) throws -> PayloadEnvelope {
        try PayloadEnvelope(accessToken: token, operation: operation, requestID: requestID, timestamp: timestamp, salt: salt)
    }

    /// The wire bytes of Docs/Protocol.md section 5 for fixed inputs, computed independently
    /// with OpenSSL (Python's `cryptography`: HKDF, then AESGCM).
    @Test func knownAnswerMatchesOpenSSL() throws {
        let envelope = try Self.envelope()
        let requestBody = Data(#"{"values":["alice@example.com","42"]}"#.utf8)
        let request = try envelope.seal(requestBody, direction: .request, iv: AES.GCM.Nonce(data: (0..<12).map { 0xA0 + UInt8($0) }))
        #expect(
            request.ciphertext.hex == "330c77cb7826ae780292fa8b3f0e8a5776827555f4e8d4f641dc4434be719dda80b3fa4ecf9720d4eeee99cd2988e3296c8a97803e")
        let responseBody = Data(#"{"results":[],"summary":{"processedCount":0,"existingCount":0,"newlyCreatedCount":0}}"#.utf8)
        let response = try envelope.seal(responseBody, direction: .response, iv: AES.GCM.Nonce(data: (0..<12).map { 0xB0 + UInt8($0) }))
        #expect(
            response.ciphertext.hex
                == "6ac72d65103bfc806c7a1e630980f6a1dec6616321cf0cb891ab0c03efe45f9a1e34c03189da31bed312ecfafdd231f9e5d26adc52e294db8cff99c140c5566b21e1c1af384f3773dfcfd28289cf7900d1c58e435f10abe6838b1b0a7ca14411c33f84f94e"
        )
        #expect(try envelope.openRequest(request) == requestBody)
        #expect(try envelope.openResponse(response) == responseBody)
        #expect(envelope.requestAssociatedData == Data("zeropii/v1|request|tokenize/batch|\(Self.requestID)|1764489600".utf8))
        #expect(envelope.responseAssociatedData == Data("zeropii/v1|response|tokenize/batch|\(Self.requestID)".utf8))
    }

    @Test func clientAndServerRoundTrip() throws {
        let client = PayloadEnvelope(accessToken: Self.token, operation: "tokenize", requestID: Self.requestID, timestamp: 1_700_000_000)
        #expect(client.salt.count == 32)
        let sealed = try client.sealRequest(Data(#"{"value":"alice@example.com"}"#.utf8))
        #expect(sealed.iv.count == 12)
        let server = try PayloadEnvelope(
            accessToken: Self.token, operation: "tokenize", requestID: Self.requestID, timestamp: 1_700_000_000, salt: client.salt)
        #expect(try server.openRequest(sealed) == Data(#"{"value":"alice@example.com"}"#.utf8))
        let reply = try server.sealResponse(Data(#"{"token":"x"}"#.utf8))
        #expect(try client.openResponse(reply) == Data(#"{"token":"x"}"#.utf8))
    }

    @Test func freshSaltAndIVEveryTime() throws {
        let first = PayloadEnvelope(accessToken: Self.token, operation: "tokenize", requestID: Self.requestID, timestamp: 1)
        let second = PayloadEnvelope(accessToken: Self.token, operation: "tokenize", requestID: Self.requestID, timestamp: 1)
        #expect(first.salt != second.salt)
        let body = Data("same body".utf8)
        #expect(try first.sealRequest(body).iv != first.sealRequest(body).iv)
    }

    /// The IV drawn with the salt goes to one seal only, however the envelope is copied
    /// or shared between threads: 200 concurrent seals through copies of one envelope
    /// give 200 different IVs, and each still opens.
    @Test func thePrefetchedIVIsHandedOutOnce() async throws {
        let envelope = PayloadEnvelope(accessToken: Self.token, operation: "tokenize", requestID: Self.requestID, timestamp: 1)
        let body = Data("same body".utf8)
        let sealed = try await withThrowingTaskGroup(of: SealedPayload.self) { group in
            for _ in 0..<200 {
                let copy = envelope
                group.addTask { try copy.sealRequest(body) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(sealed.map(\.iv)).count == 200)
        for payload in sealed { #expect(try envelope.openRequest(payload) == body) }
    }

    /// An envelope builds each direction's key schedule once and shares it: messages
    /// sealed and opened at the same time on many threads through one envelope are
    /// byte for byte what a fresh envelope gives for each, and each opens again.
    @Test func oneEnvelopeSealsAndOpensOnManyThreadsAtOnce() async throws {
        let shared = try Self.envelope()
        let outcomes = try await withThrowingTaskGroup(of: (Bool, Bool).self) { group in
            for index in 0..<96 {
                group.addTask {
                    let body = Data((0..<(index * 7)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ index) })
                    let direction: PayloadEnvelope.Direction = index % 2 == 0 ? .request : .response
                    let iv = try AES.GCM.Nonce(data: (0..<12).map { UInt8(truncatingIfNeeded: index &+ $0) })
                    let sealed = try shared.seal(body, direction: direction, iv: iv)
                    let fresh = try Self.envelope().seal(body, direction: direction, iv: iv)
                    let opened = direction == .request ? try shared.openRequest(sealed) : try shared.openResponse(sealed)
                    return (sealed == fresh, opened == body)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 96)
        #expect(outcomes.allSatisfy { $0.0 }, "a shared envelope sealed differently from a fresh one")
        #expect(outcomes.allSatisfy { $0.1 }, "a message sealed through a shared envelope did not open")
    }

    /// Each bound input changes the keys or the associated data, so a message cannot be
    /// moved to another token, operation, request, time or direction.
    @Test func everyBindingIsEnforced() throws {
        let original = try Self.envelope()
        let sealedRequest = try original.sealRequest(Data("body".utf8))
        let sealedResponse = try original.sealResponse(Data("body".utf8))
        let others = [
            try Self.envelope(token: Self.token + "x"),
            try Self.envelope(operation: "tokenize"),
            try Self.envelope(requestID: "00000000-0000-4000-8000-000000000000"),
            try Self.envelope(timestamp: 1_764_489_601),
        ]
        for other in others {
            #expect(throws: CryptoError.authenticationFailure) { try other.openRequest(sealedRequest) }
        }
        // The response does not bind the timestamp, so only the first three apply.
        for other in others.prefix(3) {
            #expect(throws: CryptoError.authenticationFailure) { try other.openResponse(sealedResponse) }
        }
        #expect(throws: CryptoError.authenticationFailure) { try original.openResponse(sealedRequest) }
        #expect(throws: CryptoError.authenticationFailure) { try original.openRequest(sealedResponse) }
    }

    @Test func malformedPayloadsAreRejected() throws {
        let envelope = try Self.envelope()
        #expect(throws: CryptoError.incorrectParameterSize) {
            try envelope.openResponse(SealedPayload(iv: Data(count: 11), ciphertext: Data(count: 32)))
        }
        #expect(throws: CryptoError.incorrectParameterSize) {
            try envelope.openResponse(SealedPayload(iv: Data(count: 12), ciphertext: Data(count: 15)))
        }
        #expect(throws: CryptoError.authenticationFailure) {
            try envelope.openResponse(SealedPayload(iv: Data(count: 12), ciphertext: Data(count: 16)))
        }
        #expect(throws: CryptoError.incorrectParameterSize) {
            try PayloadEnvelope(accessToken: Self.token, operation: "tokenize", requestID: "r", timestamp: 0, salt: Data(count: 31))
        }
    }

    @Test func descriptionsHoldNoSecrets() throws {
        let envelope = try Self.envelope()
        let sealed = try envelope.sealRequest(Data("alice@example.com".utf8))
        for text in [envelope.description, sealed.description, String(describing: envelope), String(reflecting: sealed)] {
            #expect(!text.contains(Self.token))
            #expect(!text.contains("alice"))
        }
    }
}
