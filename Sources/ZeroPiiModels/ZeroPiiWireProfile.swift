/// How request and response bodies travel between the SDK and the tokenization service:
/// the paths, headers and JSON fields are the same in every profile (Docs/Protocol.md,
/// sections 1 to 4); only the body encryption differs.
///
/// An app chooses it with `ZeroPiiConfiguration.wireProfile`; the mock server accepts
/// any set of them (`MockServerConfiguration.acceptedWireProfiles`). The raw value is
/// the name the `zeropii` tool's `--wire` option takes. The SDK never switches to
/// another profile because a server asked it to; the one exception, plaintext after a
/// 419 in the CleverTap-compatible profile, happens only when the app sets
/// `ZeroPiiConfiguration.allowsPlaintextFallback`.
public enum ZeroPiiWireProfile: String, Sendable, CaseIterable {
    /// The ZeroPii v1 envelope (`X-ZeroPii-Encryption: v1`, Docs/Protocol.md section 5): keys
    /// derived per request from the access token with HKDF, every message bound to its
    /// operation and request id, replays refused. The default, for services that speak it
    /// (the mock server and the `zeropii` tool do).
    case protocolV1 = "v1"
    /// The envelope CleverTap's Android ZeroPii SDK sends (`Encrypted: true`, body
    /// `{"itp","itk","itv"}`, Docs/Protocol.md section 9), for CleverTap's tokenization service
    /// as it is. A fresh AES-256 key per attempt travels in the body next to the
    /// ciphertext, so the encryption only keeps values out of tools that record bodies
    /// without decoding them; TLS is what protects the data.
    case cleverTapCompatible = "clevertap"
    /// Plain JSON bodies, protected by TLS alone.
    case plaintext
}
