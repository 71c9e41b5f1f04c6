import Foundation

/// A random GCM nonce drawn ahead of time that can be taken exactly once.
///
/// ``PayloadEnvelope`` draws its salt and the IV of its first sealed request in one
/// call to the system's generator. Copies of an envelope share this object, and the
/// lock makes the hand-out atomic, so however the envelope is copied or shared
/// between threads, no IV is returned twice: after the first ``take()`` the caller
/// draws a fresh one.
final class PrefetchedNonce: @unchecked Sendable {
    private let lock = NSLock()
    private var nonce: Data?

    init(_ nonce: Data) {
        self.nonce = nonce
    }

    /// The nonce the first time; `nil` ever after.
    func take() -> Data? {
        lock.lock()
        defer { lock.unlock() }
        let taken = nonce
        nonce = nil
        return taken
    }
}
