import Foundation

/// Standard Base64 with `=` padding (RFC 4648 section 4), as the envelopes of PROTOCOL.md
/// sections 5 and 9 carry their binary fields, written into and read from JSON bytes
/// directly rather than through an intermediate `String`.
///
/// Both directions are constant time in the byte values: the envelopes carry key
/// material (the CleverTap envelope's `itk` is the AES key itself), so a character is
/// mapped to its sextet and back by arithmetic on masks, never by a table look-up or a
/// branch on the data. Only lengths and the positions of `=` (which the length fixes)
/// steer control flow.
///
/// Decoding is strict: it accepts exactly one spelling of every byte string (length a
/// multiple of 4, `=` only as the one or two last characters, the unused bits of the last
/// character zero), which is what Foundation writes and what java.util.Base64 writes.
enum WireBase64 {
    /// The encoded length of `count` bytes.
    static func encodedCount(of count: Int) -> Int { (count + 2) / 3 * 4 }

    /// Appends the Base64 of `bytes` to `output`.
    static func encode(_ bytes: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) {
        let count = bytes.count
        let start = output.count
        let encoded = encodedCount(of: count)
        output.append(contentsOf: repeatElement(0, count: encoded))
        output.withUnsafeMutableBufferPointer { buffer in
            var out = start
            var index = 0
            while index + 3 <= count {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                buffer[out] = character(group >> 18)
                buffer[out + 1] = character(group >> 12)
                buffer[out + 2] = character(group >> 6)
                buffer[out + 3] = character(group)
                index += 3
                out += 4
            }
            let left = count - index
            if left == 1 {
                let group = UInt32(bytes[index]) << 16
                buffer[out] = character(group >> 18)
                buffer[out + 1] = character(group >> 12)
                buffer[out + 2] = UInt8(ascii: "=")
                buffer[out + 3] = UInt8(ascii: "=")
            } else if left == 2 {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                buffer[out] = character(group >> 18)
                buffer[out + 1] = character(group >> 12)
                buffer[out + 2] = character(group >> 6)
                buffer[out + 3] = UInt8(ascii: "=")
            }
        }
    }

    /// The bytes `text` encodes, or nil unless it is the canonical padded encoding.
    static func decode(_ text: UnsafeRawBufferPointer) -> Data? {
        let count = text.count
        guard count % 4 == 0 else { return nil }
        guard count > 0 else { return Data() }
        var padding = 0
        if text[count - 1] == UInt8(ascii: "=") { padding = text[count - 2] == UInt8(ascii: "=") ? 2 : 1 }
        let decodedCount = count / 4 * 3 - padding
        var output = Data(count: decodedCount)
        // Every character is mapped, valid or not, and the failures folded into one flag
        // that is tested once at the end.
        var invalid: Int32 = 0
        output.withUnsafeMutableBytes { raw in
            let out = raw.bindMemory(to: UInt8.self)
            let fullGroups = padding == 0 ? count / 4 : count / 4 - 1
            var index = 0
            var written = 0
            for _ in 0..<fullGroups {
                let a = sextet(text[index]), b = sextet(text[index + 1]), c = sextet(text[index + 2]), d = sextet(text[index + 3])
                invalid |= a | b | c | d
                let group = UInt32(truncatingIfNeeded: a << 18 | b << 12 | c << 6 | d)
                out[written] = UInt8(truncatingIfNeeded: group >> 16)
                out[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                out[written + 2] = UInt8(truncatingIfNeeded: group)
                index += 4
                written += 3
            }
            if padding == 2 {
                let a = sextet(text[index]), b = sextet(text[index + 1])
                invalid |= a | b | (b & 0x0F).negatedIfNonZero
                out[written] = UInt8(truncatingIfNeeded: (a << 2 | b >> 4) & 0xFF)
            } else if padding == 1 {
                let a = sextet(text[index]), b = sextet(text[index + 1]), c = sextet(text[index + 2])
                invalid |= a | b | c | (c & 0x03).negatedIfNonZero
                let group = UInt32(truncatingIfNeeded: a << 12 | b << 6 | c)
                out[written] = UInt8(truncatingIfNeeded: group >> 10)
                out[written + 1] = UInt8(truncatingIfNeeded: group >> 2)
            }
        }
        return invalid < 0 ? nil : output
    }

    /// The character of the low six bits of `value`: `A`-`Z`, `a`-`z`, `0`-`9`, `+`, `/`.
    @inline(__always)
    private static func character(_ value: UInt32) -> UInt8 {
        let v = Int32(truncatingIfNeeded: value & 0x3F)
        // Each mask is all ones when v is past a range boundary, zero otherwise.
        var shift: Int32 = 65
        shift += ((25 - v) >> 8) & 6
        shift -= ((51 - v) >> 8) & 75
        shift -= ((61 - v) >> 8) & 15
        shift += ((62 - v) >> 8) & 3
        return UInt8(truncatingIfNeeded: v + shift)
    }

    /// The sextet a character stands for, or a negative number for any other byte (`=`
    /// included).
    @inline(__always)
    private static func sextet(_ character: UInt8) -> Int32 {
        let c = Int32(character)
        // Each term adds its range's value plus one when c is inside the range: the
        // product of two masks that are all ones exactly when c is above the range's
        // start and below its end.
        var value: Int32 = -1
        value += (((0x40 - c) & (c - 0x5B)) >> 8) & (c - 64)
        value += (((0x60 - c) & (c - 0x7B)) >> 8) & (c - 70)
        value += (((0x2F - c) & (c - 0x3A)) >> 8) & (c + 5)
        value += (((0x2A - c) & (c - 0x2C)) >> 8) & 63
        value += (((0x2E - c) & (c - 0x30)) >> 8) & 64
        return value
    }
}

extension Int32 {
    /// -1 when the value is not zero, 0 when it is, without a branch (for values 0 to 0xFFFF).
    fileprivate var negatedIfNonZero: Int32 { (0 - self) >> 16 }
}
