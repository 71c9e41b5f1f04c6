import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiTransport)
import ZeroPiiTransport
#endif

/// Plain JSON bodies (Docs/Protocol.md, section 3), protected by TLS alone. An answer that
/// says it is a v1 envelope cannot be read as plain JSON and is rejected as such.
struct PlaintextProfile: WireProfile {
    var logLabel: String { "plaintext" }

    func seal(_ body: Data, for attempt: WireAttempt) throws -> SealedWireRequest {
        SealedWireRequest(
            body: body, headers: [:],
            openResponse: { response in
                response.header("X-ZeroPii-Encryption") == nil ? .success(response.body) : .failure(.invalidResponse)
            }
        )
    }
}
