import Foundation

// Each of these is a module of its own under Swift Package Manager; CocoaPods compiles
// every subspec into the one CleverTapZeroPiiSDK module, where they do not exist.
#if canImport(ZeroPiiCrypto)
import ZeroPiiCrypto
#endif
#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif
#if canImport(ZeroPiiTransport)
import ZeroPiiTransport
#endif

/// The ZeroPii v1 envelope (Docs/Protocol.md, section 5): per-request keys derived from the
/// access token and a fresh salt, the request bound to its operation, request id and
/// timestamp, the response to its operation and request id. A 2xx without the
/// `X-ZeroPii-Encryption: v1` header is rejected: the SDK never accepts a downgrade.
struct ProtocolV1Profile: WireProfile {
    var logLabel: String { "v1 envelope" }

    func seal(_ body: Data, for attempt: WireAttempt) throws -> SealedWireRequest {
        let timestamp = Int64(attempt.now.timeIntervalSince1970.rounded(.down))
        let envelope = PayloadEnvelope(
            accessToken: attempt.accessToken, operation: attempt.operation, requestID: attempt.requestID, timestamp: timestamp
        )
        let sealed = try envelope.sealRequest(body)
        let wireBody = WireEnvelope.V1Request.wireJSON(
            version: PayloadEnvelope.version, requestID: attempt.requestID, timestamp: timestamp, salt: envelope.salt, iv: sealed.iv,
            ciphertext: sealed.ciphertext
        )
        return SealedWireRequest(
            body: wireBody, headers: ["X-ZeroPii-Encryption": PayloadEnvelope.headerValue],
            openResponse: { response in Self.open(response, with: envelope) }
        )
    }

    private static func open(_ response: TransportResponse, with envelope: PayloadEnvelope) -> Result<Data, RequestFailure> {
        guard response.header("X-ZeroPii-Encryption") == PayloadEnvelope.headerValue else { return .failure(.downgradedResponse) }
        guard let wire = try? WireEnvelope.V1Response(wireJSON: response.body),
            wire.version == PayloadEnvelope.version, wire.requestID == envelope.requestID,
            let iv = wire.iv, let ciphertext = wire.ciphertext,
            let opened = try? envelope.openResponse(SealedPayload(iv: iv, ciphertext: ciphertext))
        else { return .failure(.undecryptableResponse) }
        return .success(opened)
    }
}
