import Foundation

extension AES.GCM {
    /// A GCM nonce (initialisation vector). Twelve bytes is the standard size and the
    /// fast path; any other non-zero length is accepted and hashed into the initial
    /// counter as SP 800-38D specifies.
    public struct Nonce: ContiguousBytes, Sequence, Hashable, Sendable {
        let bytes: Data

        /// A fresh random 12-byte nonce from the system's secure random generator.
        public init() {
            bytes = SecureRandom.bytes(count: GCMEngine.standardNonceByteCount)
        }

        /// A nonce holding a copy of `data`.
        /// - Throws: ``CryptoError/incorrectParameterSize`` for an empty nonce.
        public init<D: DataProtocol>(data: D) throws {
            guard !data.isEmpty else { throw CryptoError.incorrectParameterSize }
            bytes = Data(data)
        }

        public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
            try bytes.withUnsafeBytes(body)
        }

        public func makeIterator() -> Data.Iterator {
            bytes.makeIterator()
        }
    }
}
