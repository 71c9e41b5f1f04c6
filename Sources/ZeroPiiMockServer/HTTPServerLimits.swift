import Foundation

/// The bounds that keep one slow, broken or hostile client from hurting the others.
public struct HTTPServerLimits: Sendable {
    /// The request line and headers together (431 beyond).
    public var maximumHeaderBytes = 64 * 1024
    /// The body (413 beyond), PROTOCOL.md section 7.
    public var maximumBodyBytes = 8 * 1024 * 1024
    /// How long a kept-alive connection may sit idle between requests, in seconds.
    public var idleTimeout: TimeInterval = 30
    /// How long a client may take to send one whole request once it has started, in
    /// seconds; a client trickling bytes is cut off after this (408).
    public var requestTimeout: TimeInterval = 15
    /// Connections served at once; beyond this a new connection gets 503 and is closed.
    public var maximumConnections = 1024

    /// The default limits.
    public init() {}
}
