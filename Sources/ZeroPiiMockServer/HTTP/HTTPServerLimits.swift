import Foundation

/// The bounds that keep one slow, broken or hostile client from hurting the others.
///
/// Every limit has a default that suits a server left running for a team's tests; tests
/// shorten the timeouts and shrink the budget to provoke them in a fraction of a second.
public struct HTTPServerLimits: Sendable {
    /// The request line and headers together, in bytes (431 beyond).
    public var maximumHeaderBytes = 64 * 1024
    /// The body (413 beyond), Docs/Protocol.md section 7.
    public var maximumBodyBytes = 8 * 1024 * 1024
    /// How long a kept-alive connection may sit idle between requests, in seconds.
    public var idleTimeout: TimeInterval = 30
    /// How long a client may take to send one whole request, in seconds, counted from
    /// its first byte (empty lines before a request count); a client trickling bytes is
    /// cut off after this (408).
    public var requestTimeout: TimeInterval = 15
    /// How long one response may take to leave, in seconds. A client that stops reading
    /// (for example one that pipelines requests and never reads the answers) is
    /// disconnected after this instead of holding its server thread.
    public var writeTimeout: TimeInterval = 30
    /// Empty lines tolerated before a request line (RFC 9112 section 2.2 allows "at
    /// least one"); more is a 400.
    public var maximumLeadingEmptyLines = 8
    /// How long a new connection may take to send the first byte of its first request,
    /// in seconds; a connection that sends nothing is closed after this.
    public var firstByteTimeout: TimeInterval = 5
    /// Connections served at once. At this limit a new connection takes the place of an
    /// idle one of the address that holds the most; when none is idle it gets 503 and is
    /// closed.
    public var maximumConnections = 1024
    /// Connections one peer address may hold at once. At this limit a new connection
    /// from it takes the place of its own longest-idle one; when none is idle it gets
    /// 503 and is closed. A quarter of ``maximumConnections`` by default, so one address
    /// never holds every slot.
    public var maximumConnectionsPerAddress = 256
    /// The server-wide budget for request bodies held in memory, in bytes: a body is
    /// charged as its bytes arrive (16 KiB ahead, never past its `Content-Length`) until
    /// its response has been sent. Bodies over 64 KiB may hold three quarters of it
    /// together, so small requests (the OAuth login, a single tokenize) still find room.
    /// A body that does not fit gets 503 with `Retry-After`.
    public var requestMemoryBudget = 256 * 1024 * 1024

    /// The default limits.
    public init() {}
}
