import Foundation

extension LegacyAES.GCM {
    /// A GCM nonce (initialisation vector). Twelve bytes is the standard size and the
    /// fast path; any other non-zero length is accepted and hashed into the initial
    /// counter as SP 800-38D specifies.
    struct Nonce: ContiguousBytes, Sequence, Hashable, Sendable {
        let bytes: Data

        /// A fresh random 12-byte nonce from the system's secure random generator.
        init() {
            bytes = LegacySecureRandom.bytes(count: LegacyGCMEngine.standardNonceByteCount)
        }

        /// A nonce holding a copy of `data`.
        /// - Throws: ``LegacyCryptoError/incorrectParameterSize`` for an empty nonce.
        init<D: DataProtocol>(data: D) throws {
            guard !data.isEmpty else { throw LegacyCryptoError.incorrectParameterSize }
            bytes = Data(data)
        }

        func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
            try bytes.withUnsafeBytes(body)
        }

        func makeIterator() -> Data.Iterator {
            bytes.makeIterator()
        }
    }
}
