import Foundation

#if canImport(ZeroPiiCrypto)
import ZeroPiiCrypto
#endif
#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif

/// The ZeroPii v1 envelope (Docs/Protocol.md, section 5): per-request keys derived from the
/// access token and a fresh salt, the request bound to its operation, request id and
/// timestamp, the answer to its operation and request id. The keys and the sealing are
/// `PayloadEnvelope` (ZeroPiiCrypto)'s, so key material never leaves ZeroPiiCrypto; this
/// type adds the JSON form, the header and the checks of both sides.
package struct ProtocolV1Profile: WireProfile {
    /// The header that names the profile, and its value.
    package static let headerName = "X-ZeroPii-Encryption"
    /// The value of ``headerName`` for this envelope version.
    package static let headerValue = PayloadEnvelope.headerValue
    /// How far a request's `ts` may be from the server's clock.
    package static let stalenessWindow: TimeInterval = 300

    /// The profile; it has no settings.
    package init() {}

    /// The public name of this profile.
    package var name: ZeroPiiWireProfile { .protocolV1 }
    /// How log lines name the body form.
    package var logLabel: String { "v1 envelope" }

    // MARK: Client half

    /// Seals `body` for one attempt, with fresh key material.
    package func sealRequest(_ body: Data, for attempt: WireAttempt) throws -> SealedWireRequest {
        let timestamp = Int64(attempt.now.timeIntervalSince1970.rounded(.down))
        let envelope = PayloadEnvelope(
            accessToken: attempt.accessToken, operation: attempt.operation.label, requestID: attempt.requestID, timestamp: timestamp
        )
        let sealed = try envelope.sealRequest(body)
        let wireBody = WireBodies.EnvelopeRequest.wireJSON(
            version: PayloadEnvelope.version, requestID: attempt.requestID, timestamp: timestamp, salt: envelope.salt, iv: sealed.iv,
            ciphertext: sealed.ciphertext
        )
        return SealedWireRequest(
            body: wireBody, headers: [Self.headerName: Self.headerValue],
            openResponse: { body, header in Self.openResponse(body, header: header, with: envelope) }
        )
    }

    /// A 2xx without the `X-ZeroPii-Encryption: v1` header is a downgrade, and rejected.
    private static func openResponse(_ body: Data, header: (String) -> String?, with envelope: PayloadEnvelope) -> Result<Data, WireResponseFailure> {
        guard header(headerName) == headerValue else { return .failure(.downgraded) }
        guard let wire = try? WireBodies.EnvelopeResponse(wireJSON: body),
            wire.v == PayloadEnvelope.version, wire.rid == envelope.requestID,
            let iv = WireBase64.decode(wire.iv), let ciphertext = WireBase64.decode(wire.ct),
            let opened = try? envelope.openResponse(SealedPayload(iv: iv, ciphertext: ciphertext))
        else { return .failure(.undecryptable) }
        return .success(opened)
    }

    // MARK: Server half

    /// Steps 2 to 5 of the server side of section 5: the form, the version, the fields'
    /// sizes, the time, the tag, and last the request id, so that a forged envelope
    /// cannot burn an id.
    package func openRequest(_ request: IncomingWireRequest) -> Result<OpenedWireRequest, WireRejection> {
        guard let wire = try? WireBodies.EnvelopeRequest(wireJSON: request.body) else {
            return .failure(WireRejection(400, .invalidEnvelope, "the envelope does not parse"))
        }
        guard wire.v == PayloadEnvelope.version else {
            return .failure(WireRejection(400, .unsupportedVersion, "only envelope version 1 is supported"))
        }
        guard RequestID.isValid(wire.rid),
            let salt = WireBase64.decode(wire.salt), salt.count == PayloadEnvelope.saltByteCount,
            let iv = WireBase64.decode(wire.iv), iv.count == PayloadEnvelope.ivByteCount,
            let ciphertext = WireBase64.decode(wire.ct), ciphertext.count >= PayloadEnvelope.tagByteCount
        else {
            return .failure(WireRejection(400, .invalidEnvelope, "an envelope field has the wrong size or encoding"))
        }
        guard abs(Double(wire.ts) - request.now.timeIntervalSince1970) <= Self.stalenessWindow else {
            return .failure(WireRejection(400, .staleRequest, "the request time is more than 300 s from the server's"))
        }
        guard
            let envelope = try? PayloadEnvelope(
                accessToken: request.accessToken, operation: request.operation.label, requestID: wire.rid,
                timestamp: wire.ts, salt: salt
            ), let plaintext = try? envelope.openRequest(SealedPayload(iv: iv, ciphertext: ciphertext))
        else {
            return .failure(WireRejection(419, .decryptionFailed, "the request could not be decrypted"))
        }
        switch request.claimRequestID(wire.rid, wire.ts) {
        case .claimed:
            break
        case .alreadyUsed:
            return .failure(WireRejection(409, .replayedRequest, "this request id was already used"))
        case .beyondMemory:
            return .failure(WireRejection(400, .staleRequest, "the request time is older than the server's record of request ids"))
        }
        return .success(
            OpenedWireRequest(body: plaintext, sealResponse: { body, corrupt in Self.sealResponse(body, with: envelope, corrupt: corrupt) }))
    }

    private static func sealResponse(_ body: Data, with envelope: PayloadEnvelope, corrupt: Bool) -> Result<SealedWireResponse, WireRejection> {
        guard let sealed = try? envelope.sealResponse(body) else {
            return .failure(WireRejection(500, .sealFailed, "the response could not be encrypted"))
        }
        var ciphertext = sealed.ciphertext
        if corrupt { ciphertext[ciphertext.startIndex] ^= 0x01 }
        let encoded = WireBodies.EnvelopeResponse.wireJSON(
            version: PayloadEnvelope.version, requestID: envelope.requestID, iv: sealed.iv, ciphertext: ciphertext)
        return .success(SealedWireResponse(body: encoded, headers: [(headerName, headerValue)]))
    }

    /// The answer of a server that does not accept this profile.
    package var refusal: WireRejection {
        WireRejection(419, .decryptionFailed, "this server does not accept that envelope")
    }
}
