import Foundation

#if canImport(ZeroPiiCrypto)
import ZeroPiiCrypto
#endif
#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif

/// The envelope of CleverTap's Android ZeroPii SDK (Docs/Protocol.md, section 9), so that the
/// SDK can talk to CleverTap's tokenization service as it is.
///
/// Each attempt gets a fresh 32-byte key and 12-byte IV (the Android SDK keeps one key
/// per instance; a fresh one per attempt is allowed and limits what one leaked body
/// tells). The body is sealed with AES-256-GCM and no associated data and sent as
/// `{"itp","itk","itv"}` with `Encrypted: true`; the 2xx answer is `{"itp","itv"}` under
/// the same key. The key travels next to the ciphertext, so this keeps values only out
/// of tools that record bodies without decoding them; TLS is what protects the data.
package struct CleverTapProfile: WireProfile {
    /// The header that names this profile, and its value (compared without case by the server).
    package static let headerName = "Encrypted"
    /// The value of ``headerName``.
    package static let headerValue = "true"
    static let keyByteCount = 32
    static let ivByteCount = 12
    static let tagByteCount = 16

    /// Whether a 419 is answered by sending that one request again in plaintext.
    package let allowsPlaintextFallback: Bool

    /// A profile whose client half resends after a 419 in plaintext when `allowsPlaintextFallback` is true.
    package init(allowsPlaintextFallback: Bool) {
        self.allowsPlaintextFallback = allowsPlaintextFallback
    }

    /// The public name of this profile.
    package var name: ZeroPiiWireProfile { .cleverTapCompatible }
    /// How log lines name the body form.
    package var logLabel: String { "CleverTap envelope" }

    // MARK: Client half

    /// Seals `body` for one attempt, with fresh key material.
    package func sealRequest(_ body: Data, for attempt: WireAttempt) throws -> SealedWireRequest {
        // The key lives in memory that is wiped when the last reference goes, which is
        // when the answer has been opened (the opener below holds the only other one).
        let key = SymmetricKey(size: .bits256)
        let nonce = AES.GCM.Nonce()
        let sealed = try AES.GCM.seal(body, using: key, nonce: nonce)
        // The key is written into the body from its own storage, not from a copy.
        let body = WireBodies.CleverTapEnvelopeRequest.wireJSON(
            ciphertext: sealed.ciphertext, tag: sealed.tag, key: key, iv: nonce.withUnsafeBytes { Data($0) })
        return SealedWireRequest(
            body: body, headers: [Self.headerName: Self.headerValue],
            openResponse: { body, _ in Self.openResponse(body, with: key) }
        )
    }

    /// Plaintext after a 419 when the app opted in; otherwise nil.
    package func fallback(afterStatus status: Int) -> (any WireProfile)? {
        allowsPlaintextFallback && status == 419 ? PlaintextProfile() : nil
    }

    /// A 2xx without the `itp`/`itv` body is a downgrade, and rejected; one that does not
    /// open under the request's key is undecryptable, and nothing of it is used.
    private static func openResponse(_ body: Data, with key: SymmetricKey) -> Result<Data, WireResponseFailure> {
        guard let wire = try? WireBodies.CleverTapEnvelopeResponse(wireJSON: body) else {
            return .failure(.downgraded)
        }
        guard let iv = WireBase64.decode(wire.itv), iv.count == ivByteCount, let sealed = WireBase64.decode(wire.itp), sealed.count >= tagByteCount,
            let opened = open(sealed, iv: iv, key: key)
        else { return .failure(.undecryptable) }
        return .success(opened)
    }

    private static func open(_ sealed: Data, iv: Data, key: SymmetricKey) -> Data? {
        guard let box = try? AES.GCM.SealedBox(combined: iv + sealed) else { return nil }
        return try? AES.GCM.open(box, using: key)
    }

    // MARK: Server half

    /// Strict Base64 of the right sizes or 400; a ciphertext that does not open under the
    /// key it came with, 419. The answer is sealed under the request's key with a fresh IV.
    package func openRequest(_ request: IncomingWireRequest) -> Result<OpenedWireRequest, WireRejection> {
        guard let wire = try? WireBodies.CleverTapEnvelopeRequest(wireJSON: request.body) else {
            return .failure(WireRejection(400, .invalidEnvelope, "the envelope does not parse"))
        }
        guard let keyBytes = WireBase64.decode(wire.itk), keyBytes.count == Self.keyByteCount,
            let iv = WireBase64.decode(wire.itv), iv.count == Self.ivByteCount,
            let sealed = WireBase64.decode(wire.itp), sealed.count >= Self.tagByteCount
        else {
            return .failure(WireRejection(400, .invalidEnvelope, "an envelope field has the wrong size or encoding"))
        }
        let key = SymmetricKey(data: keyBytes)
        guard let plaintext = Self.open(sealed, iv: iv, key: key) else {
            return .failure(WireRejection(419, .decryptionFailed, "the request could not be decrypted"))
        }
        return .success(OpenedWireRequest(body: plaintext, sealResponse: { body, corrupt in Self.sealResponse(body, with: key, corrupt: corrupt) }))
    }

    private static func sealResponse(_ body: Data, with key: SymmetricKey, corrupt: Bool) -> Result<SealedWireResponse, WireRejection> {
        let nonce = AES.GCM.Nonce()
        guard let sealed = try? AES.GCM.seal(body, using: key, nonce: nonce) else {
            return .failure(WireRejection(500, .sealFailed, "the response could not be encrypted"))
        }
        var ciphertext = sealed.ciphertext + sealed.tag
        if corrupt { ciphertext[ciphertext.startIndex] ^= 0x01 }
        return .success(SealedWireResponse(body: WireBodies.CleverTapEnvelopeResponse.wireJSON(sealed: ciphertext, iv: Data(nonce)), headers: []))
    }

    /// The answer of a server that does not accept this profile.
    package var refusal: WireRejection {
        WireRejection(419, .decryptionFailed, "this server does not accept that envelope")
    }
}
