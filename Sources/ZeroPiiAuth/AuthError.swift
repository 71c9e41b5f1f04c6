import Foundation

/// Why no access token could be had. Messages never contain a token.
public struct AuthError: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case providerFailed
        case providerTimedOut
        case emptyToken
        case refreshLimitReached
    }

    private let code: Code

    private init(_ code: Code) { self.code = code }

    /// The provider reported an error.
    public static let providerFailed = AuthError(.providerFailed)
    /// The provider did not call its completion within the timeout.
    public static let providerTimedOut = AuthError(.providerTimedOut)
    /// The provider returned neither a token nor an error, or an empty token.
    public static let emptyToken = AuthError(.emptyToken)
    /// The server kept rejecting fresh tokens; refreshing stopped to avoid a loop.
    public static let refreshLimitReached = AuthError(.refreshLimitReached)

    /// The same text as ``description``, for code that shows `localizedDescription`.
    public var errorDescription: String? { description }

    public var description: String {
        switch code {
        case .providerFailed: return "the access token could not be obtained: the token provider reported an error"
        case .providerTimedOut: return "the access token could not be obtained: the token provider did not answer in time"
        case .emptyToken: return "the access token could not be obtained: the token provider returned no token"
        case .refreshLimitReached: return "the access token was rejected repeatedly; refreshing stopped to avoid a loop"
        }
    }
}
