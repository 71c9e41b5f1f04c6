#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif

/// Each public profile name's implementation, and the name a request's headers give.
extension ZeroPiiWireProfile {
    /// The implementation of this profile. `allowsPlaintextFallback` only matters to the
    /// client half of the CleverTap-compatible profile.
    package func makeImplementation(allowsPlaintextFallback: Bool = false) -> any WireProfile {
        switch self {
        case .protocolV1: return ProtocolV1Profile()
        case .cleverTapCompatible: return CleverTapProfile(allowsPlaintextFallback: allowsPlaintextFallback)
        case .plaintext: return PlaintextProfile()
        // The models and this module ship together, so a case this file does not know
        // cannot reach it; a build with library evolution still needs the clause.
        @unknown default: return ProtocolV1Profile()
        }
    }

    /// The profile a request's headers name (Docs/Protocol.md, section 2):
    /// `X-ZeroPii-Encryption: v1`, `Encrypted: true`, or neither for plaintext. An unknown
    /// value, or both headers, is a 400 `unsupported_encryption`.
    package static func named(byRequestHeader header: (String) -> String?) -> Result<ZeroPiiWireProfile, WireRejection> {
        switch (header(ProtocolV1Profile.headerName), header(CleverTapProfile.headerName)) {
        case (nil, nil):
            return .success(.plaintext)
        case (ProtocolV1Profile.headerValue?, nil):
            return .success(.protocolV1)
        case (nil, let value?) where value.lowercased() == CleverTapProfile.headerValue:
            return .success(.cleverTapCompatible)
        case (_?, _?):
            return .failure(WireRejection(400, .unsupportedEncryption, "a request names one encryption, not both"))
        default:
            return .failure(
                WireRejection(400, .unsupportedEncryption, "only X-ZeroPii-Encryption: v1 and Encrypted: true are supported"))
        }
    }
}
