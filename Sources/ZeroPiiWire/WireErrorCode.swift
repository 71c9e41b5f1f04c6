/// The `error.code` of an error answer (Docs/Protocol.md section 6): the codes the
/// profiles' server halves give, and which of them a client reads as a setup mismatch.
package struct WireErrorCode: RawRepresentable, Hashable, Sendable {
    /// The code as it is written in the body.
    package let rawValue: String
    /// The code `rawValue`, known or not.
    package init(rawValue: String) { self.rawValue = rawValue }

    /// 400: a plaintext request to a server that accepts encrypted ones only.
    package static let encryptionRequired = WireErrorCode(rawValue: "encryption_required")
    /// 400: the request names an encryption the server does not know, or two.
    package static let unsupportedEncryption = WireErrorCode(rawValue: "unsupported_encryption")
    /// 400: a v1 envelope of another version.
    package static let unsupportedVersion = WireErrorCode(rawValue: "unsupported_version")
    /// 400: an envelope that does not parse, or a field of the wrong size or encoding.
    package static let invalidEnvelope = WireErrorCode(rawValue: "invalid_envelope")
    /// 400: a v1 request whose `ts` is more than 300 s from the server's clock.
    package static let staleRequest = WireErrorCode(rawValue: "stale_request")
    /// 409: a v1 request whose `rid` the server has seen.
    package static let replayedRequest = WireErrorCode(rawValue: "replayed_request")
    /// 419: an envelope that does not open, or one the server does not accept.
    package static let decryptionFailed = WireErrorCode(rawValue: "decryption_failed")
    /// 500: the server could not seal its answer.
    package static let sealFailed = WireErrorCode(rawValue: "seal_failed")

    /// The 400 codes that say client and server disagree on the setup (the envelope, its
    /// version, or whether bodies are encrypted), not on the values: sending other values
    /// would not help, changing the client's wire profile would.
    package static let setupMismatches: Set<WireErrorCode> = [
        .encryptionRequired, .unsupportedEncryption, .unsupportedVersion, .invalidEnvelope,
    ]
}
