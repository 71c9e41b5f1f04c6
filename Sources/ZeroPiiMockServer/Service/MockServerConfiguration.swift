import Foundation
import ZeroPiiCrypto
import ZeroPiiModels

/// How a ``MockTokenizationServer`` is set up.
public struct MockServerConfiguration: Sendable {
    /// The IPv4 address to bind. The default keeps the server private to this machine.
    public var host = "127.0.0.1"
    /// The port, or 0 for any free one.
    public var port: UInt16 = 0
    /// Where the vault keeps its data; nil keeps it in memory only.
    public var dataFile: String?
    /// What to do when another process holds ``dataFile``: nil (the default) makes the
    /// server fail to start with ``VaultError/locked``, whose message names the file; a
    /// closure is called once, to say why there is a wait, and the server then waits for
    /// the file.
    public var whenVaultIsLocked: (@Sendable () -> Void)?
    /// How long issued access tokens stay valid, in seconds.
    public var tokenLifetime: TimeInterval = 3600
    /// Client id → secret pairs accepted by `POST oauth/token`. None by default: the
    /// demo pair (``demoClients``) is accepted only when a caller asks for it.
    public var clients: [String: String] = [:]
    /// Failed `POST oauth/token` attempts allowed in a burst per client id and per client
    /// address. Beyond, a key gets 429 with `Retry-After` until its allowance, which comes
    /// back at `limit / window` attempts a second, allows one more: with the defaults,
    /// ten failures, then one every 6 s.
    public var failedAuthenticationLimit = 10
    /// Seconds in which a spent ``failedAuthenticationLimit`` comes back whole (counted on
    /// ``now``).
    public var failedAuthenticationWindow: TimeInterval = 60
    /// Called once per answered request with what may be logged about it (never a
    /// value, token or access token); nil logs nothing.
    public var requestLogger: (@Sendable (RequestLogEntry) -> Void)?
    /// Development mode: accept any non-empty bearer token, not only tokens issued here.
    public var allowAnyToken = false
    /// Whether the `__admin/` endpoints (faults, stats, reset) answer.
    public var adminEnabled = false
    /// The bearer token the `__admin/` endpoints require (`Authorization: Bearer …`);
    /// nil requires none, which suits a server bound to loopback. A request without it
    /// gets 401 `invalid_admin_token`. `zeropii serve` makes one off loopback.
    public var adminToken: String?

    /// The shortest admin token `zeropii serve` takes from a file, in characters: the token
    /// is the one credential between the network and the fault switches.
    public static let minimumAdminTokenLength = 16

    /// A fresh admin token: 32 random bytes from the system, Base64url without padding
    /// (43 characters).
    public static func makeAdminToken() -> String {
        SecureRandom.bytes(count: 32).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
    /// The wire profiles the tokenize endpoints accept; all three by default. A request
    /// in another is refused: an encrypted one with 419 `decryption_failed`, as a service
    /// that does not know its envelope answers, a plaintext one with 400
    /// `encryption_required`. Limiting it shows that a client never falls back to
    /// plaintext, or never sends the envelope the real service would not read.
    public var acceptedWireProfiles = Set(ZeroPiiWireProfile.allCases)
    /// Connection and size limits.
    public var limits = HTTPServerLimits()
    /// The most v1 request ids the server remembers for replay detection. Each is kept
    /// until its request could no longer pass the staleness check (300 s after its
    /// `ts`); when a burst fills the record, the oldest second's ids are dropped and
    /// requests as old or older are answered 400 `stale_request` (Docs/Protocol.md
    /// section 5). About 50 bytes an id.
    public var replayCacheCapacity = 1_000_000
    /// The server's clock; tests skew it to provoke `stale_request`.
    public var now: @Sendable () -> Date = { Date() }

    /// The well-known demo credentials, `zeropii-demo` / `zeropii-demo-secret`: for demos
    /// and tests only, since everyone knows them.
    public static let demoClients = ["zeropii-demo": "zeropii-demo-secret"]

    /// The defaults: 127.0.0.1, a free port, an in-memory vault, no OAuth clients.
    public init() {}
}
