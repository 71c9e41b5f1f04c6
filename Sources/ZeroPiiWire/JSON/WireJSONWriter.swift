import Foundation

/// Writes the JSON of the wire bodies byte by byte, in the key order Docs/Protocol.md shows
/// and without whitespace, instead of through `JSONEncoder`, which would cost a large
/// share of every request's CPU and orders keys by hash.
///
/// Strings are written as UTF-8 with the escapes RFC 8259 requires and no others:
/// `"` and `\` with a backslash, the control characters below U+0020 as `\b`, `\t`, `\n`,
/// `\f`, `\r` or `\u00XX` (lowercase hex). `/` is written as itself, so Base64 reads the
/// same in a body as java.util.Base64 writes it.
struct WireJSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// JSON text known at compile time: punctuation and keys, written as they are.
    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A JSON string literal holding `text`.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { appendString(utf8: $0) }
    }

    /// A JSON string literal holding the Base64 of `data`.
    mutating func base64<Bytes: ContiguousBytes>(_ data: Bytes) {
        bytes.append(UInt8(ascii: "\""))
        data.withUnsafeBytes { WireBase64.encode($0, appendingTo: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A decimal integer.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // The digits go in last first and are then turned round in place.
        var magnitude = value.magnitude
        let first = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[first...].reverse()
    }

    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Writes runs of bytes that need no escape in one append each, so an ordinary value
    /// costs one bounds check and one copy.
    private mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            runStart = index + 1
            appendEscape(for: byte)
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(for byte: UInt8) {
        let backslash = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), backslash: bytes.append(contentsOf: [backslash, byte])
        case 0x08: bytes.append(contentsOf: [backslash, UInt8(ascii: "b")])
        case 0x09: bytes.append(contentsOf: [backslash, UInt8(ascii: "t")])
        case 0x0A: bytes.append(contentsOf: [backslash, UInt8(ascii: "n")])
        case 0x0C: bytes.append(contentsOf: [backslash, UInt8(ascii: "f")])
        case 0x0D: bytes.append(contentsOf: [backslash, UInt8(ascii: "r")])
        default:
            bytes.append(contentsOf: [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(Self.hexDigit(byte >> 4))
            bytes.append(Self.hexDigit(byte & 0x0F))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
