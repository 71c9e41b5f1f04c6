import Foundation

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
    /// Client id → secret pairs accepted by `POST oauth/token`.
    public var clients: [String: String] = ["zeropii-demo": "zeropii-demo-secret"]
    /// Development mode: accept any non-empty bearer token, not only tokens issued here.
    public var allowAnyToken = false
    /// Whether the `__admin/` endpoints (faults, stats, reset) answer.
    public var adminEnabled = false
    /// Connection and size limits.
    public var limits = HTTPServerLimits()
    /// The server's clock; tests skew it to provoke `stale_request`.
    public var now: @Sendable () -> Date = { Date() }

    /// The defaults: 127.0.0.1, a free port, an in-memory vault, the demo client.
    public init() {}
}
