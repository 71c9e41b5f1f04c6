import Foundation

/// The singleton, created on first `initialize` and reconfigured by later ones.
final class SharedInstance: @unchecked Sendable {
    // Sendable: `current` is guarded by `lock`.
    private let lock = NSLock()
    private var current: ZeroPiiSDK?

    var instance: ZeroPiiSDK? { lock.withLock { current } }

    /// Installs `engine` in the existing instance, or creates one; says which.
    func install(engine: ZeroPiiSDK.Engine, create: (ZeroPiiSDK.Engine) -> ZeroPiiSDK) -> (ZeroPiiSDK, replaced: Bool) {
        lock.withLock {
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
