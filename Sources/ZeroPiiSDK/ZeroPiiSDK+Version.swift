extension ZeroPiiSDK {
    /// The SDK's version (semantic versioning), as in its release tag, its CocoaPods
    /// spec and the `User-Agent` header it sends (`ZeroPiiSDK/<version> (<OS>)`).
    public static let version = "1.0.0"
}
