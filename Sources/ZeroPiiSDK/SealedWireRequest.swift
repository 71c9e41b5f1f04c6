import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiTransport)
import ZeroPiiTransport
#endif

/// One sealed request: the body and the headers of its profile, and the matching way to
/// read the response (which holds any key the response is opened with).
struct SealedWireRequest: Sendable {
    let body: Data
    /// Headers the profile adds to the common ones (Docs/Protocol.md section 2).
    let headers: [String: String]
    /// Turns a 2xx response into the plain JSON of section 3, or the failure to report.
    let openResponse: @Sendable (TransportResponse) -> Result<Data, RequestFailure>
}
