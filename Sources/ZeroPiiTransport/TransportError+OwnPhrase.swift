extension TransportError {
    /// The fixed details the package's own transports write for a failure that has no
    /// system or libcurl number: the only phrases besides numbers that messages repeat.
    package enum OwnPhrase: String, CaseIterable, Sendable {
        /// URLSession ended a task without an HTTP response.
        case noHTTPResponse = "no HTTP response"
        /// A header the curl transport refused before sending (a line break, a bad name).
        case invalidHeaderField = "invalid header field"
        /// A body longer than the curl transport takes.
        case responseTooLarge = "curl response too large"
        /// A connection closed in the middle of the answer's headers.
        case incompleteResponse = "curl incomplete response"
        /// `101 Switching Protocols`, which the curl transport never asks for.
        case switchedProtocols = "curl switched protocols"
        /// `Content-Length` fields or list items that differ, or are not numbers.
        case unclearContentLength = "curl unclear content length"

        /// Whether sending the same request again cannot change the failure: a header that
        /// is refused every time, or a server that answers so every time.
        var isPermanent: Bool {
            switch self {
            case .invalidHeaderField, .switchedProtocols, .unclearContentLength: true
            case .noHTTPResponse, .responseTooLarge, .incompleteResponse: false
            }
        }
    }

    /// A connection failure with one of the package's own fixed details.
    package static func connectionFailed(_ phrase: OwnPhrase) -> TransportError {
        .connectionFailed(detail: phrase.rawValue)
    }
}
