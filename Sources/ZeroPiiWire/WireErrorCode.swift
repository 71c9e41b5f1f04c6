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

    /// The codes the protocol's servers answer with (those above, the others Docs/Protocol.md
    /// names, and those of the mock server's HTTP layer), the only ones a client repeats in
    /// its messages: any other `code` is the server's own text, which a faulty
    /// or hostile server could fill with a value it was sent (a number, a lower-case name).
    package static let documented: Set<String> = Set(
        [encryptionRequired, unsupportedEncryption, unsupportedVersion, invalidEnvelope, staleRequest, replayedRequest, decryptionFailed, sealFailed]
            .map(\.rawValue)
            + [
                "bad_request", "batch_empty", "batch_too_large", "body_too_large", "duplicate_header", "headers_too_large", "http_version",
                "injected_fault", "invalid_json", "invalid_request", "invalid_token", "invalid_value", "length_required", "method_not_allowed",
                "not_found", "not_implemented", "request_timeout", "server_busy", "too_many_attempts", "too_many_connections", "vault_error",
            ])

    /// The 400 codes that say client and server disagree on the setup (the envelope, its
    /// version, or whether bodies are encrypted), not on the values: sending other values
    /// would not help, changing the client's wire profile would.
    package static let setupMismatches: Set<WireErrorCode> = [
        .encryptionRequired, .unsupportedEncryption, .unsupportedVersion, .invalidEnvelope,
    ]
}
