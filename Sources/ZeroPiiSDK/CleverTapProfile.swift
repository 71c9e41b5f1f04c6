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

/// The envelope of CleverTap's Android ZeroPii SDK (Docs/Protocol.md, section 9), so that the
/// SDK can talk to CleverTap's tokenization service as it is.
///
/// Each attempt gets a fresh 32-byte key and 12-byte IV (the Android SDK keeps one key
/// per instance; a fresh one per attempt is allowed and limits what one leaked body
/// tells). The body is sealed with AES-256-GCM and no associated data and sent as
/// `{"itp","itk","itv"}` with `Encrypted: true`; the 2xx answer is `{"itp","itv"}` under
/// the same key. The key travels next to the ciphertext, so this keeps values only out
/// of tools that record bodies without decoding them; TLS is what protects the data.
struct CleverTapProfile: WireProfile {
    static let headerName = "Encrypted"
    static let headerValue = "true"
    static let ivByteCount = 12
    static let tagByteCount = 16

    /// Whether a 419 is answered by sending that one request again in plaintext.
    let allowsPlaintextFallback: Bool

    var logLabel: String { "CleverTap envelope" }

    func seal(_ body: Data, for attempt: WireAttempt) throws -> SealedWireRequest {
        // The key lives in memory that is wiped when the last reference goes, which is
        // when the response has been opened (the opener below holds the only other one).
        let key = SymmetricKey(size: .bits256)
        let nonce = AES.GCM.Nonce()
        let sealed = try AES.GCM.seal(body, using: key, nonce: nonce)
        // The key is written into the body from its own storage, not from a copy.
        let body = WireEnvelope.CleverTapRequest.wireJSON(
            ciphertext: sealed.ciphertext, tag: sealed.tag, key: key, iv: nonce.withUnsafeBytes { Data($0) })
        return SealedWireRequest(
            body: body, headers: [Self.headerName: Self.headerValue],
            openResponse: { response in Self.open(response, with: key) }
        )
    }

    func fallback(afterStatus status: Int) -> (any WireProfile)? {
        allowsPlaintextFallback && status == 419 ? PlaintextProfile() : nil
    }

    /// A 2xx without the `itp`/`itv` body is a downgrade, and rejected; one that does not
    /// open under the request's key is undecryptable, and nothing of it is used.
    private static func open(_ response: TransportResponse, with key: SymmetricKey) -> Result<Data, RequestFailure> {
        guard let wire = try? WireEnvelope.CleverTapResponse(wireJSON: response.body) else {
            return .failure(.downgradedResponse)
        }
        guard let iv = wire.iv, iv.count == ivByteCount, let sealed = wire.sealed,
            sealed.count >= tagByteCount, let box = try? AES.GCM.SealedBox(combined: iv + sealed),
            let opened = try? AES.GCM.open(box, using: key)
        else { return .failure(.undecryptableResponse) }
        return .success(opened)
    }
}
