import Foundation

extension AES.GCM {
    /// A GCM nonce (initialisation vector). Twelve bytes is the standard size and the
    /// fast path; longer nonces are accepted and hashed into the initial counter as
    /// SP 800-38D specifies. Shorter ones are refused, as swift-crypto and CryptoKit
    /// refuse them: a short nonce gives little room before one repeats.
    package struct Nonce: ContiguousBytes, Sequence, Hashable, Sendable {
        let bytes: Data

        /// A fresh random 12-byte nonce from the system's secure random generator.
        package init() {
            bytes = SecureRandom.publicBytes(count: GCMEngine.standardNonceByteCount)
        }

        /// A nonce holding a copy of `data`.
        /// - Throws: ``CryptoError/incorrectParameterSize`` for a nonce shorter than 12 bytes.
        package init<D: DataProtocol>(data: D) throws {
            guard data.count >= GCMEngine.standardNonceByteCount else { throw CryptoError.incorrectParameterSize }
            bytes = Data(data)
        }

        package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
            try bytes.withUnsafeBytes(body)
        }

        package func makeIterator() -> Data.Iterator {
            bytes.makeIterator()
        }
    }
}
