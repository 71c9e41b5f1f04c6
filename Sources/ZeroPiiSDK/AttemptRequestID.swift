import Foundation

// A module of its own under Swift Package Manager; part of the one CleverTapZeroPiiSDK
// module under CocoaPods, where it does not exist.
#if canImport(ZeroPiiCrypto)
import ZeroPiiCrypto
#endif

/// The `X-Request-ID` (and envelope `rid`) of one attempt: a random UUID v4 in lowercase
/// (Docs/Protocol.md, sections 2 and 5), written straight from its bytes instead of through
/// `uuidString` and `lowercased()`, which made two strings per attempt.
///
/// The 122 random bits come from the system's secure generator through
/// `SecureRandom.fillPublic` (a fork-safe pool drawn a page at a time on Linux, since
/// the id is sent in the clear; `arc4random_buf` on Apple platforms), not from `UUID()`:
/// on Linux that opens, reads and closes `/dev/urandom` for every UUID, and
/// `SystemRandomNumberGenerator` makes a `getrandom` call per eight bytes.
enum AttemptRequestID {
    static func make() -> String {
        var uuid: (UInt64, UInt64) = (0, 0)
        return withUnsafeMutableBytes(of: &uuid) { bytes in
            SecureRandom.fillPublic(bytes)
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
