import Foundation

/// One HTTP response: status, headers and body.
public struct TransportResponse: Sendable, CustomStringConvertible {
    /// The status code, such as 200.
    public var statusCode: Int
    /// Header fields as received.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data

    /// A response with this status, headers and body.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The value of a header, matched without regard to case (HTTP header names are
    /// case-insensitive).
    public func header(_ name: String) -> String? {
        headers.value(forHeader: name)
    }

    public var description: String {
        "TransportResponse(\(statusCode), \(body.count) bytes)"
    }
}
