import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// The singleton, created on first `initialize` and reconfigured by later ones.
final class SharedInstance: Sendable {
    private let current = Locked<ZeroPiiSDK?>(nil)

    var instance: ZeroPiiSDK? { current.withLock { $0 } }

    /// Installs `engine` in the existing instance, or creates one; says which.
    func install(engine: ZeroPiiSDK.Engine, create: (ZeroPiiSDK.Engine) -> ZeroPiiSDK) -> (ZeroPiiSDK, replaced: Bool) {
        current.withLock { current in
            if let current {
                current.replaceEngine(engine)
                return (current, true)
            }
            let created = create(engine)
            current = created
            return (created, false)
        }
    }
}
