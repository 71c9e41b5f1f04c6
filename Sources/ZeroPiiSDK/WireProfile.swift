import Foundation

/// One way of carrying the plain JSON bodies of Docs/Protocol.md section 3 over the wire: the
/// v1 envelope, the CleverTap-compatible envelope, or plaintext.
///
/// Chosen once, when the SDK is configured
/// (``ZeroPiiWireProfile/makeImplementation(allowsPlaintextFallback:)``); the
/// pipeline in ``TokenizationClient`` only calls this interface, so a profile's rules
/// live in its own type and not in branches of the pipeline.
protocol WireProfile: Sendable {
    /// How log lines name the body form (never anything of the body itself).
    var logLabel: String { get }

    /// Seals `body` for one attempt: what to send, and how to open the answer. Every call
    /// draws fresh key material, so a retry or a replay is a new request on the wire.
    func seal(_ body: Data, for attempt: WireAttempt) throws -> SealedWireRequest

    /// The profile to send the same request with once more after an answer with
    /// `status`, or nil to take the answer as it is. Only the CleverTap-compatible profile
    /// with the app's opt-in answers a 419 with plaintext.
    func fallback(afterStatus status: Int) -> (any WireProfile)?
}

extension WireProfile {
    func fallback(afterStatus status: Int) -> (any WireProfile)? { nil }
}
