/// The sizes Docs/Protocol.md sets for one tokenize request, for the server that
/// enforces them and the tools that check input before sending it.
package enum WireLimits {
    /// The most values one request may carry.
    package static let maximumBatchSize = 1000
    /// The longest value, in UTF-8 bytes (the shortest is one byte).
    package static let maximumValueBytes = 4096
}
