import Foundation

/// The `X-Request-ID` (and envelope `rid`) of one attempt: a random UUID v4 in lowercase
/// (PROTOCOL.md, sections 2 and 5), written straight from its bytes instead of through
/// `uuidString` and `lowercased()`, which made two strings per attempt.
///
/// The 122 random bits come from `SystemRandomNumberGenerator` (`getrandom` on Linux,
/// `arc4random_buf` on Apple platforms), not from `UUID()`: on Linux that opens, reads
/// and closes `/dev/urandom` for every UUID, three system calls per attempt.
enum AttemptRequestID {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var uuid = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // variant 10 (RFC 9562)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { text in
                var out = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[out] = UInt8(ascii: "-")
                        out += 1
                    }
                    text[out] = hexDigit(byte >> 4)
                    text[out + 1] = hexDigit(byte & 0x0F)
                    out += 2
                }
                return String(decoding: UnsafeBufferPointer(rebasing: text[0..<out]), as: UTF8.self)
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
