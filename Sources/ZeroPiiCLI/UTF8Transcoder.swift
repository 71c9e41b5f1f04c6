/// Converts a stream of bytes in an ``InputEncoding`` to UTF-8, chunk by chunk: a
/// character split between two chunks is held back until the rest of it arrives.
///
/// What cannot be converted (a lone UTF-16 surrogate, an odd byte at the end of UTF-16
/// input) becomes the byte 0xFF, which never occurs in UTF-8, so the value holding it is
/// refused as not UTF-8 instead of being tokenized as some other text. Windows-1252 is
/// read as the WHATWG Encoding Standard defines it (what browsers do): the five bytes
/// the code page leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) become the C1 control
/// characters of the same number, as in ISO-8859-1.
struct UTF8Transcoder {
    let encoding: InputEncoding
    /// Bytes of a character not yet complete: one byte of a UTF-16 code unit, or the
    /// two bytes of a high surrogate waiting for its low one.
    private var pending: [UInt8] = []

    /// The byte that stands for input that could not be converted.
    static let invalid: UInt8 = 0xFF

    init(encoding: InputEncoding) {
        self.encoding = encoding
    }

    /// The UTF-8 for `chunk`, as far as its characters are complete.
    mutating func convert(_ chunk: [UInt8]) -> [UInt8] {
        switch encoding {
        case .utf8: return chunk
        case .latin1: return Self.convertSingleByte(chunk, highHalf: nil)
        case .windows1252: return Self.convertSingleByte(chunk, highHalf: Self.windows1252From80To9F)
        case .utf16LittleEndian, .utf16BigEndian: return convertUTF16(chunk)
        }
    }

    /// What is left at the end of the input: an incomplete UTF-16 character becomes
    /// ``invalid``.
    mutating func finish() -> [UInt8] {
        defer { pending.removeAll() }
        return pending.isEmpty ? [] : [Self.invalid]
    }

    /// Windows-1252's characters for the bytes 0x80 to 0x9F; every other byte is the
    /// Unicode scalar of the same number, as in ISO-8859-1.
    private static let windows1252From80To9F: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    private static func convertSingleByte(_ chunk: [UInt8], highHalf: [UInt16]?) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(chunk.count + chunk.count / 8)
        for byte in chunk {
            if byte < 0x80 {
                output.append(byte)
            } else if let highHalf, byte < 0xA0 {
                appendUTF8(of: UInt32(highHalf[Int(byte) - 0x80]), to: &output)
            } else {
                appendUTF8(of: UInt32(byte), to: &output)
            }
        }
        return output
    }

    private mutating func convertUTF16(_ chunk: [UInt8]) -> [UInt8] {
        let bytes = pending.isEmpty ? chunk : pending + chunk
        pending.removeAll()
        let littleEndian = encoding == .utf16LittleEndian
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        func unit(at offset: Int) -> UInt16 {
            littleEndian
                ? UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
                : UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
        }
        while index + 1 < bytes.count {
            let first = unit(at: index)
            switch first {
            case 0xD800...0xDBFF:
                guard index + 3 < bytes.count else {
                    // The low surrogate may be in the next chunk.
                    pending = Array(bytes[index...])
                    return output
                }
                let second = unit(at: index + 2)
                if (0xDC00...0xDFFF).contains(second) {
                    let scalar = 0x10000 + (UInt32(first - 0xD800) << 10) + UInt32(second - 0xDC00)
                    Self.appendUTF8(of: scalar, to: &output)
                    index += 4
                } else {
                    output.append(Self.invalid)
                    index += 2
                }
            case 0xDC00...0xDFFF:
                output.append(Self.invalid)
                index += 2
            default:
                Self.appendUTF8(of: UInt32(first), to: &output)
                index += 2
            }
        }
        if index < bytes.count { pending = [bytes[index]] }
        return output
    }

    /// Appends the UTF-8 of a Unicode scalar value (never a surrogate here).
    private static func appendUTF8(of value: UInt32, to output: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(value) else {
            output.append(invalid)
            return
        }
        UTF8.encode(scalar) { output.append($0) }
    }
}
