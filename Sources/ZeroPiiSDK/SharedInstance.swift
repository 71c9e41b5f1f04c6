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
    /// The engine it replaced is released after the lock is let go (see
    /// `ZeroPiiSDK.replaceEngine`).
    func install(engine: ZeroPiiSDK.Engine, create: (ZeroPiiSDK.Engine) -> ZeroPiiSDK) -> (ZeroPiiSDK, replaced: Bool) {
        // The replaced engine comes out of the lock and is dropped here, after it.
        let (installed, _): ((ZeroPiiSDK, replaced: Bool), ZeroPiiSDK.Engine?) = current.withLock { current in
            if let current {
                return ((current, true), current.replaceEngine(engine))
            }
            let created = create(engine)
            current = created
            return ((created, false), nil)
        }
        return installed
    }
}
