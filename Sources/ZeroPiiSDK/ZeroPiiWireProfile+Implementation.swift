// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif

extension ZeroPiiWireProfile {
    /// The implementation of this profile.
    func makeImplementation(allowsPlaintextFallback: Bool) -> any WireProfile {
        switch self {
        case .protocolV1: return ProtocolV1Profile()
        case .cleverTapCompatible: return CleverTapProfile(allowsPlaintextFallback: allowsPlaintextFallback)
        case .plaintext: return PlaintextProfile()
        // The models and the SDK ship together, so a case this file does not know cannot
        // reach it; a build with library evolution still needs the clause.
        @unknown default: return ProtocolV1Profile()
        }
    }
}
