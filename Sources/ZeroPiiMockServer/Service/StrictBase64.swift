import Foundation

/// Base64 decoding that accepts exactly one spelling of every byte string (RFC 4648).
///
/// Foundation's decoder is lenient: it accepts `AB==` (whose last character carries
/// bits that are thrown away), `AA=A`, `QUJD====`. Docs/Protocol.md says "standard, padded,
/// strict", so the envelope's fields are decoded here: the standard alphabet, length a
/// multiple of 4, `=` only as the one or two last characters, and the unused bits of
/// the last character zero. Access tokens use the URL alphabet without padding, under
/// the same rules otherwise.
enum StrictBase64 {
    /// Standard alphabet with `=` padding; nil for anything but the canonical encoding.
    static func decode(_ text: String) -> Data? {
        decode(Array(text.utf8), urlAlphabet: false).map { Data($0) }
    }

    /// URL alphabet (`-` and `_`) without padding; nil for anything but the canonical encoding.
    static func decodeURL(_ text: String) -> [UInt8]? {
        decode(Array(text.utf8), urlAlphabet: true)
    }

    private static func decode(_ characters: [UInt8], urlAlphabet: Bool) -> [UInt8]? {
        var count = characters.count
        if !urlAlphabet {
            guard count % 4 == 0 else { return nil }
            var padding = 0
            while padding < 2 && count > 0 && characters[count - 1] == UInt8(ascii: "=") {
                count -= 1
                padding += 1
            }
        }
        // What is left holds no `=`; a group of one character cannot encode a byte.
        guard count % 4 != 1 else { return nil }
        if !urlAlphabet && (characters.count - count) != (4 - count % 4) % 4 { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for index in 0..<count {
            guard let value = sextet(characters[index], urlAlphabet: urlAlphabet) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // The bits left over pad the last character: a canonical encoding has them zero.
        guard accumulator == 0 else { return nil }
        return bytes
    }

    private static func sextet(_ character: UInt8, urlAlphabet: Bool) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+") where !urlAlphabet, UInt8(ascii: "-") where urlAlphabet: return 62
        case UInt8(ascii: "/") where !urlAlphabet, UInt8(ascii: "_") where urlAlphabet: return 63
        default: return nil
        }
    }
}
