import Foundation

/// The two keys of one ``PayloadEnvelope`` (`K_req` then `K_resp`) and their expanded
/// AES key schedules.
///
/// A key's schedule is built the first time its direction seals or opens, and kept
/// for the envelope's later messages in that direction: the server opens a request
/// and may seal several responses, a client may seal a request again, and the key
/// schedule of AES-256 costs about as much as encrypting four blocks. The lock makes
/// the first build happen once however copies of the envelope are shared between
/// threads. The raw keys stay in ``SecureBytes`` and the schedules in
/// ``BitslicedAES``; both are wiped when the last copy of the envelope goes away.
final class EnvelopeKeys: @unchecked Sendable {
    /// The size of each key.
    static let keyByteCount = 32

    private let keys: SecureBytes
    private let lock = NSLock()
    private var requestEngine: GCMEngine?
    private var responseEngine: GCMEngine?

    init(_ keys: SecureBytes) {
        precondition(keys.count == 2 * Self.keyByteCount)
        self.keys = keys
    }

    /// The engine of one direction's key, built on first use.
    func engine(for direction: PayloadEnvelope.Direction) -> GCMEngine {
        lock.lock()
        defer { lock.unlock() }
        switch direction {
        case .request:
            if let requestEngine { return requestEngine }
            let engine = makeEngine(keyOffset: 0)
            requestEngine = engine
            return engine
        case .response:
            if let responseEngine { return responseEngine }
            let engine = makeEngine(keyOffset: Self.keyByteCount)
            responseEngine = engine
            return engine
        }
    }

    private func makeEngine(keyOffset: Int) -> GCMEngine {
        keys.withUnsafeBytes { both in
            // A 32-byte key is always a valid AES key, so this cannot throw.
            try! GCMEngine(key: UnsafeRawBufferPointer(rebasing: both[keyOffset..<(keyOffset + Self.keyByteCount)]))
        }
    }
}
