import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiTransport)
import ZeroPiiTransport
#endif

/// An `HTTPTransport` that answers every request with a closure: for testing an app
/// against the SDK without a server.
///
/// ```swift
/// let transport = ClosureTransport { request in
///     TransportResponse(statusCode: 503, headers: ["Retry-After": "1"])
/// }
/// ```
public struct ClosureTransport: HTTPTransport {
    private let handler: @Sendable (TransportRequest) async throws -> TransportResponse

    /// A transport that answers with `handler`.
    public init(_ handler: @escaping @Sendable (TransportRequest) async throws -> TransportResponse) {
        self.handler = handler
    }

    /// Answers `request` with the closure's response, or throws what it throws.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await handler(request)
    }

    /// Answers every request with the same status, headers and body.
    public static func responding(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) -> ClosureTransport {
        ClosureTransport { _ in TransportResponse(statusCode: statusCode, headers: headers, body: body) }
    }

    /// Fails every request as if the network were down.
    public static func failing(with error: TransportError = .connectionFailed) -> ClosureTransport {
        ClosureTransport { _ in throw error }
    }
}
