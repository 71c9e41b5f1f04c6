import Foundation

/// The size of a symmetric key, in bits.
struct LegacySymmetricKeySize: Hashable, Sendable {
    /// The number of bits in the key.
    let bitCount: Int

    /// A size of `bitCount` bits; `bitCount` must be a positive multiple of 8.
    init(bitCount: Int) {
        precondition(bitCount > 0 && bitCount % 8 == 0, "a key size is a positive whole number of bytes")
        self.bitCount = bitCount
    }

    /// 128 bits, for LegacyAES-128.
    static let bits128 = LegacySymmetricKeySize(bitCount: 128)
    /// 192 bits, for LegacyAES-192.
    static let bits192 = LegacySymmetricKeySize(bitCount: 192)
    /// 256 bits, for LegacyAES-256 and LegacyHMAC-LegacySHA256.
    static let bits256 = LegacySymmetricKeySize(bitCount: 256)
}

/// A symmetric cryptographic key.
///
/// The bytes are held in memory that is wiped when the key is released. Two keys
/// compare equal, in constant time, when they hold the same bytes. The description
/// never shows the key material.
struct LegacySymmetricKey: Sendable, ContiguousBytes, Equatable, CustomStringConvertible {
    let storage: LegacySecureBytes

    /// A key holding a copy of `data`.
    init<D: ContiguousBytes>(data: D) {
        storage = data.withUnsafeBytes { LegacySecureBytes(copying: $0) }
    }

    /// A new key of the given size filled from the system's secure random generator.
    init(size: LegacySymmetricKeySize) {
        storage = LegacySecureBytes(count: size.bitCount / 8) { LegacySecureRandom.fill($0) }
    }

    init(storage: LegacySecureBytes) {
        self.storage = storage
    }

    /// The number of bits in the key.
    var bitCount: Int { storage.count * 8 }

    /// Calls `body` with the key's bytes. The pointer must not escape the closure.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes(body)
    }

    static func == (lhs: LegacySymmetricKey, rhs: LegacySymmetricKey) -> Bool {
        LegacyConstantTime.equals(lhs, rhs)
    }

    var description: String { "LegacySymmetricKey(\(bitCount) bits)" }
}
