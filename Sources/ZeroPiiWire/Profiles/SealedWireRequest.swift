import Foundation

/// One request sealed by a profile's client half: the body and the headers of its
/// profile, and the matching way to read the answer (which holds any key the answer is
/// opened with).
package struct SealedWireRequest: Sendable {
    /// Reads a 2xx answer: its body and a look-up of its headers by name.
    package typealias ResponseOpener = @Sendable (_ body: Data, _ header: (String) -> String?) -> Result<Data, WireResponseFailure>

    /// The body to send.
    package let body: Data
    /// Headers the profile adds to the common ones (Docs/Protocol.md section 2).
    package let headers: [String: String]
    /// Turns a 2xx answer into the plain JSON of section 3, or says why it cannot.
    package let openResponse: ResponseOpener

    /// A value with these fields.
    package init(body: Data, headers: [String: String], openResponse: @escaping ResponseOpener) {
        self.body = body
        self.headers = headers
        self.openResponse = openResponse
    }
}
