import Foundation

/// A request a profile's server half has read: its plain JSON body, and how to seal the
/// answer as the request was sealed (with any key the request brought).
package struct OpenedWireRequest: Sendable {
    /// Seals a plain JSON answer. `corruptingCiphertext` flips one bit of the sealed
    /// ciphertext, for servers that inject faults; a plaintext answer has none to flip.
    package typealias ResponseSealer = @Sendable (_ body: Data, _ corruptingCiphertext: Bool) -> Result<SealedWireResponse, WireRejection>

    /// The plain JSON of Docs/Protocol.md section 3.
    package let body: Data
    /// Seals the answer as the request was sealed.
    package let sealResponse: ResponseSealer

    /// A value with these fields.
    package init(body: Data, sealResponse: @escaping ResponseSealer) {
        self.body = body
        self.sealResponse = sealResponse
    }
}

/// A 2xx answer sealed by a profile's server half: the body and the headers the profile
/// adds.
package struct SealedWireResponse: Sendable {
    /// The body to send.
    package let body: Data
    /// Headers the profile adds to the answer.
    package let headers: [(name: String, value: String)]

    /// A value with these fields.
    package init(body: Data, headers: [(name: String, value: String)]) {
        self.body = body
        self.headers = headers
    }
}
