import Foundation

/// The size of a symmetric key, in bits.
package struct SymmetricKeySize: Hashable, Sendable {
    /// The number of bits in the key.
    package let bitCount: Int

    /// A size of `bitCount` bits; `bitCount` must be a positive multiple of 8.
    package init(bitCount: Int) {
        precondition(bitCount > 0 && bitCount % 8 == 0, "a key size is a positive whole number of bytes")
        self.bitCount = bitCount
    }

    /// 128 bits, for AES-128.
    package static let bits128 = SymmetricKeySize(bitCount: 128)
    /// 192 bits, for AES-192.
    package static let bits192 = SymmetricKeySize(bitCount: 192)
    /// 256 bits, for AES-256 and HMAC-SHA256.
    package static let bits256 = SymmetricKeySize(bitCount: 256)
}

/// A symmetric cryptographic key.
///
/// The bytes are held in memory that is wiped when the key is released. Two keys
/// compare equal, in constant time, when they hold the same bytes. The description
/// never shows the key material.
package struct SymmetricKey: Sendable, ContiguousBytes, Equatable, CustomStringConvertible {
    let storage: SecureBytes

    /// A key holding a copy of `data`.
    package init<D: ContiguousBytes>(data: D) {
        storage = data.withUnsafeBytes { SecureBytes(copying: $0) }
    }

    /// A new key of the given size filled from the system's secure random generator.
    package init(size: SymmetricKeySize) {
        storage = SecureBytes(count: size.bitCount / 8) { SecureRandom.fill($0) }
    }

    init(storage: SecureBytes) {
        self.storage = storage
    }

    /// The number of bits in the key.
    package var bitCount: Int { storage.count * 8 }

    /// Calls `body` with the key's bytes. The pointer must not escape the closure.
    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes(body)
    }

    package static func == (lhs: SymmetricKey, rhs: SymmetricKey) -> Bool {
        ConstantTime.equals(lhs, rhs)
    }

    package var description: String { "SymmetricKey(\(bitCount) bits)" }
}
