import Foundation

/// A request that got no HTTP response.
///
/// Messages name the kind of failure only; they never hold the URL's query, headers or
/// body.
public struct TransportError: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case timedOut
        case connectionFailed
        case cancelled
    }

    private let code: Code
    /// Extra detail that is safe to show (for example a system error code).
    public let detail: String?

    private init(_ code: Code, detail: String? = nil) {
        self.code = code
        self.detail = detail
    }

    /// The attempt took longer than its timeout.
    public static let timedOut = TransportError(.timedOut)
    /// The connection could not be made or was lost (refused, reset, DNS, TLS).
    public static let connectionFailed = TransportError(.connectionFailed)
    /// The request was cancelled.
    public static let cancelled = TransportError(.cancelled)

    /// A connection failure with a detail such as the system's error code.
    public static func connectionFailed(detail: String) -> TransportError {
        TransportError(.connectionFailed, detail: detail)
    }

    public static func == (lhs: TransportError, rhs: TransportError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// The same text as ``description``, for code that shows `localizedDescription`.
    public var errorDescription: String? { description }

    public var description: String {
        let base: String
        switch code {
        case .timedOut: base = "the request timed out"
        case .connectionFailed: base = "the connection failed"
        case .cancelled: base = "the request was cancelled"
        }
        return detail.map { "\(base) (\($0))" } ?? base
    }
}
