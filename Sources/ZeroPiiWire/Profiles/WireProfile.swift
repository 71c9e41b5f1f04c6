import Foundation

#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif

/// One way of carrying the plain JSON bodies of Docs/Protocol.md section 3 over the wire
/// (the v1 envelope, the CleverTap-compatible envelope, or plaintext), with both halves:
/// the client's (seal the request, open the answer) and the server's (open the request,
/// seal the answer). The SDK uses the first, the mock server the second, and
/// `WireProfileRoundTripTests` runs each client half against each server half.
///
/// A profile's rules live in its own type: the SDK's pipeline and the mock server's
/// handler only call this interface, so adding a profile means adding one type here and
/// a case to ``ZeroPiiModels/ZeroPiiWireProfile``.
package protocol WireProfile: Sendable {
    /// The public name of this profile.
    var name: ZeroPiiWireProfile { get }

    /// How log lines name the body form (never anything of the body itself).
    var logLabel: String { get }

    // MARK: Client half

    /// Seals `body` for one attempt: what to send, and how to open the answer. Every call
    /// draws fresh key material, so a retry or a replay is a new request on the wire.
    func sealRequest(_ body: Data, for attempt: WireAttempt) throws -> SealedWireRequest

    /// The profile to send the same request with once more after an answer with
    /// `status`, or nil to take the answer as it is. Only the CleverTap-compatible profile
    /// with the app's opt-in answers a 419 with plaintext.
    func fallback(afterStatus status: Int) -> (any WireProfile)?

    // MARK: Server half

    /// Reads a request sent in this profile: the plain JSON body and how to seal the
    /// answer, or the error answer the protocol gives.
    func openRequest(_ request: IncomingWireRequest) -> Result<OpenedWireRequest, WireRejection>

    /// The answer of a server that was told not to accept this profile.
    var refusal: WireRejection { get }
}

extension WireProfile {
    /// Plaintext after a 419 when the app opted in; otherwise nil.
    package func fallback(afterStatus status: Int) -> (any WireProfile)? { nil }
}
