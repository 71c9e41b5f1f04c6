import Foundation

/// One parsed HTTP request as the mock server's handler sees it.
public struct ServerRequest: Sendable {
    /// The method, as sent (`GET`, `POST`, ...).
    public let method: String
    /// The path without the query string, percent-encoding kept.
    public let path: String
    /// The query string after `?`, or empty.
    public let query: String
    /// Header fields in arrival order, names lowercased.
    public let headers: [(name: String, value: String)]
    /// The body (empty when there was none).
    public let body: Data
    /// The client's IPv4 address as text (empty when unknown), for per-address limits.
    public internal(set) var remoteAddress = ""

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name == lowered }?.value
    }

    /// How many times a header is given, by case-insensitive name.
    func headerCount(_ name: String) -> Int {
        let lowered = name.lowercased()
        return headers.reduce(0) { $0 + ($1.name == lowered ? 1 : 0) }
    }
}

/// What the server sends back for one request.
public struct ServerResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields to send; `Date`, `Content-Length` and `Connection` are added by the server.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: Data
    /// How many values a tokenize request carried, for the request log.
    var valueCount = 0

    /// A response with this status, headers and body.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response.
    public static func json(status: Int, _ body: Data, headers: [(name: String, value: String)] = []) -> ServerResponse {
        ServerResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: body)
    }
}

/// What a handler decides for a request.
public enum ServerAction: Sendable {
    /// Send this response.
    case respond(ServerResponse)
    /// Close the connection without answering (a fault the tests inject).
    case closeWithoutResponse
}
