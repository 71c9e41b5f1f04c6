/// CRC-32 (IEEE 802.3), to detect torn or corrupted records in the vault file. It
/// guards against accidents, not attackers, and never sees secret data.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = (value & 1) == 1 ? (0xEDB8_8320 ^ (value >> 1)) : (value >> 1)
        }
        return value
    }

    static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        feed(bytes, into: &crc)
        return crc ^ 0xFFFF_FFFF
    }

    /// The CRC-32 of `previous` (4 bytes, big-endian) followed by `bytes`: a checksum
    /// that chains a record to the one before it, so that a record removed, repeated or
    /// moved no longer checks.
    static func checksum<Bytes: Sequence>(_ bytes: Bytes, after previous: UInt32) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        withUnsafeBytes(of: previous.bigEndian) { feed($0, into: &crc) }
        feed(bytes, into: &crc)
        return crc ^ 0xFFFF_FFFF
    }

    private static func feed<Bytes: Sequence>(_ bytes: Bytes, into crc: inout UInt32) where Bytes.Element == UInt8 {
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
    }
}
