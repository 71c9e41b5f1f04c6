/// Why a ``CurlTransport`` could not be made: libcurl is missing or too old, or an
/// option is invalid. The reason names no URL, path or key.
public struct CurlTransportSetupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in one line.
    public let reason: String

    /// An error with this reason.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "the curl transport cannot be used: \(reason)" }
}
