/// An error answer of Docs/Protocol.md section 4 that a profile's server half gives: the
/// status, the code (``WireErrorCode``) and a message that never echoes a submitted
/// value.
package struct WireRejection: Error, Sendable, Equatable {
    /// The HTTP status.
    package let status: Int
    /// The `error.code` of the body.
    package let code: WireErrorCode
    /// The `error.message`: says what is wrong, never shows a submitted value.
    package let message: String

    /// A rejection with this status, code and message.
    package init(_ status: Int, _ code: WireErrorCode, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}
