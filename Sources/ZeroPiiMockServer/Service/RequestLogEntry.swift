import Foundation

/// What the mock server may say about one request in a log: never a value, a token or
/// an access token, and not a path it does not serve (a path can carry anything).
public struct RequestLogEntry: Sendable, Equatable {
    /// When the request had arrived.
    public let date: Date
    /// The method, as sent; `-` for a request the HTTP layer rejected before it was parsed.
    public let method: String
    /// The path, if it is one the server serves; `-` otherwise.
    public let path: String
    /// The status answered, or 0 when the connection was closed without an answer.
    public let status: Int
    /// How long the server took to answer, in milliseconds.
    public let milliseconds: Double
    /// How many values a tokenize request carried (0 for other requests and rejected ones).
    public let valueCount: Int

    /// One line: `2026-12-01T08:15:00.123Z POST /ct-vault/api/v2/tokenize 200 1.8ms values=1`.
    public var line: String {
        "\(Self.timestamp(date)) \(method) \(path) \(status) \(String(format: "%.1f", milliseconds))ms values=\(valueCount)"
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// The paths logged as they are; every other path is logged as `-`.
    static func loggedPath(_ path: String) -> String {
        let served: Set<String> = [
            "/ct-vault/api/v2/tokenize", "/ct-vault/api/v2/tokenize/batch", "/oauth/token", "/healthz", "/__admin/stats", "/__admin/faults",
            "/__admin/expire-tokens", "/__admin/reset",
        ]
        return served.contains(path) ? path : "-"
    }

    /// An entry for a request the HTTP layer answered with an error status now.
    init(rejectedWith status: Int, started: Date) {
        date = started
        method = "-"
        path = "-"
        self.status = status
        valueCount = 0
        milliseconds = Date().timeIntervalSince(started) * 1000
    }

    /// An entry for a request answered now.
    init(request: ServerRequest, started: Date, action: ServerAction) {
        date = started
        method = request.method.utf8.count <= 16 ? request.method : "-"
        path = Self.loggedPath(request.path)
        switch action {
        case .respond(let response):
            status = response.status
            valueCount = response.valueCount
        case .closeWithoutResponse:
            status = 0
            valueCount = 0
        }
        milliseconds = Date().timeIntervalSince(started) * 1000
    }
}
