/// How much the SDK logs. Whatever the level, a log line never holds a submitted
/// value, a returned token or an access token.
#if canImport(ObjectiveC)
@objc(ZeroPiiLogLevel)
#endif
public enum ZeroPiiLogLevel: Int, Sendable, Comparable {
    /// No logging (the default).
    case off = 0
    /// Errors only.
    case error = 1
    /// Errors and informational messages.
    case info = 2
    /// Errors, information and a debug trace of each request. For development.
    case debug = 3

    public static func < (lhs: ZeroPiiLogLevel, rhs: ZeroPiiLogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
