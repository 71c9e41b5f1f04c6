/// An app's ``AccessTokenProvider`` handed across concurrency domains.
///
/// The provider protocol is Objective-C compatible and so cannot require `Sendable`.
/// The SDK documents that `fetchToken(completion:)` may be called on any thread, which
/// is the contract a provider already has with the rest of an app; this wrapper states
/// that contract to the compiler in one place.
package struct SharedTokenProvider: @unchecked Sendable {
    /// The wrapped provider.
    package let value: AccessTokenProvider

    /// Wraps `value`.
    package init(_ value: AccessTokenProvider) {
        self.value = value
    }
}
