import Foundation

/// One HTTP request, as the SDK hands it to a transport.
///
/// The body may hold personal data when payload encryption is off, and the headers
/// hold the access token, so neither is ever part of a description.
public struct TransportRequest: Sendable, CustomStringConvertible {
    /// The HTTP method, such as `POST`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields; names as written by the SDK.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data
    /// How long this one attempt may take, in seconds, before it fails as timed out.
    public var timeout: TimeInterval

    /// A request; `timeout` is in seconds for this one attempt.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data = Data(), timeout: TimeInterval = 30) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// The value of a header, matched without regard to case (HTTP header names are
    /// case-insensitive).
    public func header(_ name: String) -> String? {
        headers.value(forHeader: name)
    }

    public var description: String {
        "TransportRequest(\(method) \(url.path), \(body.count) bytes)"
    }
}
