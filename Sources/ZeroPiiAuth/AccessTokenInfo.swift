import Foundation

/// A bearer access token and how long it stays valid.
///
/// The description never shows the token.
#if canImport(ObjectiveC)
@objc(AccessTokenInfo)
#endif
public class AccessTokenInfo: NSObject, @unchecked Sendable {
    // Sendable: both stored properties are immutable values.

    /// The bearer access token.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let token: String
    /// Seconds until expiry, counted from now. Zero or less means "use once": the
    /// token serves the requests waiting for it and is not cached.
    #if canImport(ObjectiveC)
    @objc
    #endif
    public let expiresInSeconds: Int

    /// A token and its remaining lifetime.
    ///
    /// - Parameters:
    ///   - token: The bearer access token, sent as is in the `Authorization` header.
    ///   - expiresInSeconds: Seconds from now until the token expires; 0 or less means
    ///     it is used for the requests waiting for it and not cached.
    #if canImport(ObjectiveC)
    @objc(initWithToken:expiresInSeconds:)
    #endif
    public init(token: String, expiresInSeconds: Int) {
        self.token = token
        self.expiresInSeconds = expiresInSeconds
    }

    public override var description: String {
        "AccessTokenInfo(token: <redacted>, expiresInSeconds: \(expiresInSeconds))"
    }
}
