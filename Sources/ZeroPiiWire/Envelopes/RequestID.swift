import Foundation

#if canImport(ZeroPiiCrypto)
import ZeroPiiCrypto
#endif

/// The id of one attempt, sent as `X-Request-ID` and, in the v1 envelope, as `rid`
/// (Docs/Protocol.md, sections 2 and 5): a random UUID version 4 written in lowercase,
/// `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.
package enum RequestID {
    /// A new id. The 122 random bits come from the system's secure generator through
    /// `SecureRandom.fillPublic`, since the id travels in the clear; the text is written
    /// straight from the bytes, one string per attempt.
    package static func make() -> String {
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

    /// Whether `text` has the form of an id: 36 bytes, lowercase hexadecimal digits with
    /// dashes at 8, 13, 18 and 23. Checked on UTF-8 bytes: counting `Character`s would let
    /// one "character" (a base letter with thousands of combining marks) be megabytes long.
    package static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) else {
                    return false
                }
            }
        }
        return true
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
