import Foundation

#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif

/// Plain JSON bodies (Docs/Protocol.md, section 3), protected by TLS alone. An answer that
/// says it is a v1 envelope cannot be read as plain JSON and is rejected as such.
package struct PlaintextProfile: WireProfile {
    /// The profile; it has no settings.
    package init() {}

    /// The public name of this profile.
    package var name: ZeroPiiWireProfile { .plaintext }
    /// How log lines name the body form.
    package var logLabel: String { "plaintext" }

    /// Seals `body` for one attempt, with fresh key material.
    package func sealRequest(_ body: Data, for attempt: WireAttempt) throws -> SealedWireRequest {
        SealedWireRequest(
            body: body, headers: [:],
            openResponse: { body, header in
                header(ProtocolV1Profile.headerName) == nil ? .success(body) : .failure(.unreadable)
            }
        )
    }

    /// Reads a request sent in this profile.
    package func openRequest(_ request: IncomingWireRequest) -> Result<OpenedWireRequest, WireRejection> {
        .success(OpenedWireRequest(body: request.body, sealResponse: { body, _ in .success(SealedWireResponse(body: body, headers: [])) }))
    }

    /// The answer of a server that does not accept this profile.
    package var refusal: WireRejection {
        WireRejection(400, .encryptionRequired, "this server accepts encrypted requests only")
    }
}
