import Foundation

/// Standard Base64 with `=` padding (RFC 4648 section 4), as the envelopes of Docs/Protocol.md
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
        // Encoded into a scratch buffer and appended with one copy rather than by growing
        // the array element by element: an unoptimized build (the ThreadSanitizer pass)
        // would otherwise make a generic call, with a metadata look-up, per byte, which
        // turns into a lock storm when many threads encode.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: encodedCount(of: bytes.count)) { buffer in
            encode(bytes, into: buffer)
            output.append(contentsOf: buffer)
        }
    }

    /// Writes the Base64 of `bytes` into `buffer`, which holds exactly its encoded count.
    private static func encode(_ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let count = bytes.count
        var out = 0
        var index = 0
        // Six bytes at a time into eight characters, all eight mapped at once.
        if let source = bytes.baseAddress, let target = UnsafeMutableRawPointer(buffer.baseAddress) {
            while index + 8 <= count {
                // Eight bytes are read and six used, so the loop stops two short of the end.
                let word = UInt64(bigEndian: source.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                var sextets: UInt64 = 0
                for lane in 0..<8 { sextets |= (word >> UInt64(58 - 6 * lane) & 0x3F) << UInt64(8 * lane) }
                target.storeBytes(of: Self.characters(sextets).littleEndian, toByteOffset: out, as: UInt64.self)
                index += 6
                out += 8
            }
        }
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

    /// The bytes `text` encodes, or nil unless it is the canonical padded encoding.
    package static func decode(_ text: String) -> Data? {
        var text = text
        return text.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
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
            // Eight characters at a time into six bytes. Bad lanes are only gathered here
            // (folding them into `invalid` per word let the optimiser branch on them).
            var badLanes: UInt64 = 0
            defer { invalid |= badLanes == 0 ? 0 : -1 }
            if let source = text.baseAddress {
                let target = UnsafeMutableRawPointer(out.baseAddress!)
                while index + 8 <= fullGroups * 4 {
                    let (sextets, bad) = Self.sextets(UInt64(littleEndian: source.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                    badLanes |= bad
                    let group = Self.packed(sextets)
                    if written + 8 <= decodedCount {
                        // Eight bytes stored, six meant: the next group or the tail overwrites the two after them.
                        target.storeBytes(of: (group << 16).bigEndian, toByteOffset: written, as: UInt64.self)
                    } else {
                        for offset in 0..<6 { out[written + offset] = UInt8(truncatingIfNeeded: group >> UInt64(40 - 8 * offset)) }
                    }
                    index += 8
                    written += 6
                }
            }
            while index < fullGroups * 4 {
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

    private static let lanes: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// 0x80 in each byte lane of `x` (every lane below 0x80) that is at least `bound`.
    @inline(__always)
    private static func atLeast(_ x: UInt64, _ bound: UInt8) -> UInt64 {
        (x &+ lanes &* UInt64(0x80 - bound)) & highBits
    }

    /// The 48 bits that eight sextets (one per byte lane, the first character's in the
    /// lowest lane) stand for, the first character's bits highest: neighbouring lanes are
    /// joined into 12-bit pairs, then pairs into 24-bit groups, a few shifts and masks in
    /// all rather than a shift per lane.
    @inline(__always)
    private static func packed(_ sextets: UInt64) -> UInt64 {
        let pairs = ((sextets & 0x003F_003F_003F_003F) << 6) | ((sextets >> 8) & 0x003F_003F_003F_003F)
        let groups = ((pairs & 0x0000_0FFF_0000_0FFF) << 12) | ((pairs >> 16) & 0x0000_0FFF_0000_0FFF)
        return (groups & 0xFF_FFFF) << 24 | (groups >> 32) & 0xFF_FFFF
    }

    /// The characters of eight sextets, one in each byte lane, by the same arithmetic as
    /// ``character(_:)`` done on all lanes at once (no lane carries into the next: every
    /// intermediate stays below 0x100).
    @inline(__always)
    private static func characters(_ sextets: UInt64) -> UInt64 {
        var result = sextets &+ lanes &* 65
        result &+= (atLeast(sextets, 26) >> 7) &* 6
        result &-= (atLeast(sextets, 52) >> 7) &* 75
        result &-= (atLeast(sextets, 62) >> 7) &* 15
        result &+= (atLeast(sextets, 63) >> 7) &* 3
        return result
    }

    /// The sextets of eight characters, one in each byte lane, and a word that is not zero
    /// when any of them is not a Base64 character.
    @inline(__always)
    private static func sextets(_ characters: UInt64) -> (UInt64, bad: UInt64) {
        let x = characters & ~highBits
        // A lane mask of 0xFF where lo <= x <= hi.
        func range(_ low: UInt8, _ high: UInt8) -> UInt64 {
            ((atLeast(x, low) & ~atLeast(x, high + 1)) >> 7) &* 0xFF
        }
        let upper = range(65, 90), lower = range(97, 122), digit = range(48, 57), plus = range(43, 43), slash = range(47, 47)
        let offset = x | highBits
        var value = ((offset &- lanes &* 65) & ~highBits) & upper
        value |= ((offset &- lanes &* 71) & ~highBits) & lower
        value |= ((x &+ lanes &* 4) & ~highBits) & digit
        value |= (lanes &* 62) & plus
        value |= (lanes &* 63) & slash
        let valid = upper | lower | digit | plus | slash
        return (value, ~valid | (characters & highBits))
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
