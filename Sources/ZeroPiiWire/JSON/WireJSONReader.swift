import Foundation

/// Reads the JSON of the wire bodies straight from the bytes, strictly (RFC 8259), instead
/// of through `JSONDecoder`, which would take more than half of a 1,000-value batch's
/// client CPU.
///
/// It rejects everything `JSONDecoder` rejects in these bodies (syntax errors, trailing
/// bytes, raw control characters in strings, lone surrogates in `\u` escapes, nesting
/// deeper than ``maximumDepth``, wrong types, missing fields), and more, as RFC 8259 or
/// the protocol asks: a key twice in one object, a comma before `}`, a byte order mark,
/// integers written with a fraction or an exponent (`1.0`, `1e2`, which no producer of
/// these bodies writes), and invalid UTF-8, bad escapes or bad numbers anywhere, also in
/// the unknown fields that JSONDecoder skips without checking. Unknown keys are skipped
/// as Docs/Protocol.md section 3 asks, after their values are checked like any other JSON.
///
/// The reader works on the caller's bytes for the duration of one decode
/// (``WireJSONReader/read(_:_:)``); errors carry a reason and an offset, never any of the
/// body's content.
struct WireJSONReader {
    /// How deep arrays and objects may nest, the body's own object counting as 1:
    /// JSONDecoder's limit.
    static let maximumDepth = 512

    private let base: UnsafePointer<UInt8>
    private let end: Int
    private(set) var position = 0
    private var depth = 0

    private init(_ base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        end = count
    }

    /// Runs `body` over a reader of `data` and checks that nothing but whitespace follows
    /// what it read.
    static func read<Result>(_ data: Data, _ body: (inout WireJSONReader) throws -> Result) throws -> Result {
        try data.withUnsafeBytes { raw in
            // An empty buffer may have no address; it is not JSON in any case.
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, !raw.isEmpty else {
                throw WireJSONError(.unexpectedEnd, at: 0)
            }
            var reader = WireJSONReader(base, count: raw.count)
            let result = try body(&reader)
            reader.skipWhitespace()
            guard reader.position == reader.end else { throw reader.failure(.trailingBytes) }
            return result
        }
    }

    // MARK: Objects and arrays

    /// The keys of one object, tracked so that none is accepted twice.
    struct SeenKeys {
        fileprivate var known: UInt64 = 0
        fileprivate var unknown: [[UInt8]] = []
        /// The schema key after the last one read: the likely next one, when a producer
        /// writes the keys in the schema's order.
        fileprivate var expected = 0
        /// The bit of every key of the object's schema, to check that all required ones came.
        func contains(_ index: Int) -> Bool { known & (1 << UInt64(index)) != 0 }
    }

    /// Reads one object whose schema is `keys`: `member` reads the value of each key it
    /// names (by index), unknown keys' values are checked and skipped, a key twice is an
    /// error, and so is a missing key whose bit is set in `required`.
    mutating func readObject(
        keys: [StaticString], required: UInt64, _ member: (inout WireJSONReader, Int) throws -> Void
    ) throws {
        assert(keys.allSatisfy(Self.isPlain), "a schema key that JSON would escape")
        let start = position
        try beginObject()
        var seen = SeenKeys()
        while let index = try nextKey(of: keys, seen: &seen) {
            if index < 0 {
                try skipValue()
            } else {
                try member(&self, index)
            }
        }
        guard seen.known & required == required else { throw WireJSONError(.missingKey, at: start) }
    }

    /// Reads an array, `element` reading each element.
    mutating func readArray(_ element: (inout WireJSONReader) throws -> Void) throws {
        try beginArray()
        var isFirst = true
        while try nextElement(isFirst: &isFirst) { try element(&self) }
    }

    /// Reads `{` and prepares to read the object's members with ``nextKey(of:seen:)``.
    mutating func beginObject() throws {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { throw failure(.expectedObject) }
        try enterNesting()
        position += 1
    }

    /// The index in `keys` of the next member's key, positioned at its value; -1 for a key
    /// the schema does not name (skip its value with ``skipValue()``); nil after the
    /// object's closing `}`. A key that comes twice is an error.
    mutating func nextKey(of keys: [StaticString], seen: inout SeenKeys) throws -> Int? {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return nil
        }
        if seen.known != 0 || !seen.unknown.isEmpty {
            guard peek() == UInt8(ascii: ",") else { throw failure(.expectedCommaOrEnd) }
            position += 1
            skipWhitespace()
        }
        guard peek() == UInt8(ascii: "\"") else { throw failure(.expectedKey) }
        let index = try readKey(matching: keys, seen: &seen)
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw failure(.expectedColon) }
        position += 1
        return index
    }

    /// Reads `[` and prepares to read its elements with ``nextElement(isFirst:)``.
    mutating func beginArray() throws {
        skipWhitespace()
        guard peek() == UInt8(ascii: "[") else { throw failure(.expectedArray) }
        try enterNesting()
        position += 1
    }

    /// True when another element follows, positioned at it; false after the closing `]`.
    mutating func nextElement(isFirst: inout Bool) throws -> Bool {
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return false
        }
        if !isFirst {
            guard peek() == UInt8(ascii: ",") else { throw failure(.expectedCommaOrEnd) }
            position += 1
        }
        isFirst = false
        return true
    }

    // MARK: Values

    /// A string value.
    mutating func readString() throws -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw failure(.expectedString) }
        return try scanString { span, escaped in
            if let escaped { return String(decoding: escaped, as: UTF8.self) }
            return String(decoding: span, as: UTF8.self)
        }
    }

    /// A string value or `null` (nil).
    mutating func readOptionalString() throws -> String? {
        skipWhitespace()
        if peek() == UInt8(ascii: "n") {
            try readLiteral("null")
            return nil
        }
        return try readString()
    }

    mutating func readBool() throws -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return true
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return false
        default:
            throw failure(.expectedBool)
        }
    }

    /// An integer written as the wire writes integers (`-`, then `0` or digits without a
    /// leading zero) within `range`.
    mutating func readInteger(in range: ClosedRange<Int64>) throws -> Int64 {
        skipWhitespace()
        let start = position
        let negative = peek() == UInt8(ascii: "-")
        if negative { position += 1 }
        guard let first = digit(at: position) else { throw WireJSONError(.expectedInteger, at: start) }
        position += 1
        // Accumulated as a negative number, whose range holds Int64.min.
        var value = -Int64(first)
        if first != 0 {
            while let next = digit(at: position) {
                let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowAdd) = shifted.subtractingReportingOverflow(Int64(next))
                guard !overflowShift, !overflowAdd else { throw WireJSONError(.integerOutOfRange, at: start) }
                value = sum
                position += 1
            }
        }
        // A fraction, an exponent or a leading zero followed by digits: not an integer as written.
        if let next = peek(), next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") || digit(at: position) != nil {
            throw WireJSONError(.expectedInteger, at: start)
        }
        if !negative {
            guard value != .min else { throw WireJSONError(.integerOutOfRange, at: start) }
            value = -value
        }
        guard range.contains(value) else { throw WireJSONError(.integerOutOfRange, at: start) }
        return value
    }

    /// Checks and skips one value of any kind: an unknown member's.
    mutating func skipValue() throws {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "\"")?:
            _ = try scanString { _, _ in () }
        case UInt8(ascii: "{")?:
            try beginObject()
            var isFirst = true
            while true {
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    position += 1
                    depth -= 1
                    return
                }
                if !isFirst {
                    guard peek() == UInt8(ascii: ",") else { throw failure(.expectedCommaOrEnd) }
                    position += 1
                    skipWhitespace()
                }
                isFirst = false
                guard peek() == UInt8(ascii: "\"") else { throw failure(.expectedKey) }
                _ = try scanString { _, _ in () }
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw failure(.expectedColon) }
                position += 1
                try skipValue()
            }
        case UInt8(ascii: "[")?:
            try beginArray()
            var isFirst = true
            while try nextElement(isFirst: &isFirst) { try skipValue() }
        case UInt8(ascii: "t")?: try readLiteral("true")
        case UInt8(ascii: "f")?: try readLiteral("false")
        case UInt8(ascii: "n")?: try readLiteral("null")
        case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?: try skipNumber()
        default: throw failure(.expectedValue)
        }
    }

    // MARK: Scanning

    private mutating func enterNesting() throws {
        guard depth < Self.maximumDepth else { throw failure(.tooDeep) }
        depth += 1
    }

    @inline(__always)
    private func peek() -> UInt8? { position < end ? base[position] : nil }

    @inline(__always)
    private func digit(at index: Int) -> UInt8? {
        guard index < end else { return nil }
        let value = base[index] &- UInt8(ascii: "0")
        return value < 10 ? value : nil
    }

    private mutating func skipWhitespace() {
        while position < end {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func readLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard end - position >= count, memcmp(base + position, literal.utf8Start, count) == 0 else { throw failure(.expectedValue) }
        position += count
    }

    /// RFC 8259's number: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)? ([eE] [+-]? [0-9]+)?
    private mutating func skipNumber() throws {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = digit(at: position) else { throw WireJSONError(.invalidNumber, at: start) }
        position += 1
        if first != 0 { while digit(at: position) != nil { position += 1 } }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard digit(at: position) != nil else { throw WireJSONError(.invalidNumber, at: start) }
            while digit(at: position) != nil { position += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard digit(at: position) != nil else { throw WireJSONError(.invalidNumber, at: start) }
            while digit(at: position) != nil { position += 1 }
        }
    }

    /// Reads a key and finds it in `keys`, recording it in `seen`.
    private mutating func readKey(matching keys: [StaticString], seen: inout SeenKeys) throws -> Int {
        let start = position
        let index: Int
        if let known = quotedSchemaKey(in: keys, from: seen.expected) {
            index = known
            position += keys[known].utf8CodeUnitCount + 2
        } else {
            index = try scanKey(matching: keys, seen: &seen)
        }
        if index >= 0 {
            guard !seen.contains(index) else { throw WireJSONError(.duplicateKey, at: start) }
            seen.known |= 1 << UInt64(index)
            seen.expected = index + 1
        } else if index == -2 {
            throw WireJSONError(.duplicateKey, at: start)
        }
        return index
    }

    /// The index of the schema key whose quoted form (`"key"`) the bytes at `position` are
    /// exactly, trying `first` first; nil when none is. Schema keys are plain ASCII that
    /// JSON writes as is (``isPlain(_:)``, checked in debug builds), so those bytes are the
    /// whole string and hold that key, with nothing to unescape or check: a 1,000-item
    /// answer's 5,000 keys skip the scan of ``scanString(_:)`` and the search of the
    /// schema. A key written with escapes, or not in the schema, takes the full scan.
    @inline(__always)
    private func quotedSchemaKey(in keys: [StaticString], from first: Int) -> Int? {
        guard base[position] == UInt8(ascii: "\"") else { return nil }
        var index = first < keys.count ? first : 0
        for _ in 0..<keys.count {
            let key = keys[index]
            let count = key.utf8CodeUnitCount
            if end - position >= count + 2, base[position + count + 1] == UInt8(ascii: "\""),
                memcmp(base + position + 1, key.utf8Start, count) == 0
            {
                return index
            }
            index = index + 1 == keys.count ? 0 : index + 1
        }
        return nil
    }

    /// Whether JSON writes `key` as is: printable ASCII other than `"` and `\`.
    private static func isPlain(_ key: StaticString) -> Bool {
        UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount).allSatisfy {
            $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        }
    }

    /// Scans a key and finds it in `keys`: its index, -1 for a key the schema does not
    /// name (recorded in `seen`), -2 for such a key seen before.
    private mutating func scanKey(matching keys: [StaticString], seen: inout SeenKeys) throws -> Int {
        try scanString { span, escaped -> Int in
            let key = escaped.map { bytes in bytes.withUnsafeBufferPointer { Self.index(of: $0, in: keys) } } ?? Self.index(of: span, in: keys)
            guard key < 0 else { return key }
            let bytes = escaped ?? Array(span)
            guard !seen.unknown.contains(bytes) else { return -2 }
            seen.unknown.append(bytes)
            return -1
        }
    }

    private static func index(of key: UnsafeBufferPointer<UInt8>, in keys: [StaticString]) -> Int {
        for (index, candidate) in keys.enumerated()
        where candidate.utf8CodeUnitCount == key.count && (key.isEmpty || memcmp(candidate.utf8Start, key.baseAddress!, key.count) == 0) {
            return index
        }
        return -1
    }

    /// Scans the string at the current `"` and hands `body` its content: the raw span
    /// when it holds no escape, otherwise nil and the unescaped UTF-8. The UTF-8 is checked
    /// either way.
    private mutating func scanString<Result>(
        _ body: (UnsafeBufferPointer<UInt8>, [UInt8]?) throws -> Result
    ) throws -> Result {
        let quote = position
        position += 1
        let contentStart = position
        while position < end {
            // Eight bytes at a time up to the first one that needs a look: the strings of a
            // batch answer are mostly plain ASCII, and a byte-by-byte scan was a tenth of
            // reading one.
            if end - position >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                let flagged = Self.bytesNeedingALook(word)
                guard flagged != 0 else {
                    position += 8
                    continue
                }
                position += flagged.trailingZeroBitCount >> 3
            }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                let span = UnsafeBufferPointer(start: base + contentStart, count: position - contentStart)
                position += 1
                return try body(span, nil)
            }
            if byte == UInt8(ascii: "\\") {
                var unescaped = Array(UnsafeBufferPointer(start: base + contentStart, count: position - contentStart))
                try scanEscapedRest(into: &unescaped)
                return try body(UnsafeBufferPointer(start: base + contentStart, count: 0), unescaped)
            }
            if byte < 0x20 { throw failure(.controlCharacterInString) }
            if byte < 0x80 {
                position += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        throw WireJSONError(.unterminatedString, at: quote)
    }

    /// The high bit of each byte of `word` (first byte lowest) that is `"`, `\\`, a control
    /// character or not ASCII, and possibly of bytes after such a byte: the subtractions'
    /// borrows run upwards only, so the lowest bit set always marks a byte that needs a look.
    @inline(__always)
    private static func bytesNeedingALook(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let isQuote = (quotes &- ones) & ~quotes
        let isBackslash = (backslashes &- ones) & ~backslashes
        let isControl = (word &- ones &* 0x20) & ~word
        return (isQuote | isBackslash | isControl | word) & highBits
    }

    /// The rest of a string from its first backslash, unescaped into `output`, up to and
    /// past the closing `"`.
    private mutating func scanEscapedRest(into output: inout [UInt8]) throws {
        while position < end {
            // A run of plain ASCII (the common case, Base64 between `\/` escapes) goes in one copy.
            let runStart = position
            while position < end, case let byte = base[position], byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""),
                byte != UInt8(ascii: "\\")
            {
                position += 1
            }
            if position > runStart { output.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: position - runStart)) }
            guard position < end else { break }
            let byte = base[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                try readEscape(into: &output)
            case ..<0x20:
                throw failure(.controlCharacterInString)
            case ..<0x80:
                output.append(byte)
                position += 1
            default:
                let start = position
                try skipUTF8Sequence()
                output.append(contentsOf: UnsafeBufferPointer(start: base + start, count: position - start))
            }
        }
        throw failure(.unterminatedString)
    }

    private mutating func readEscape(into output: inout [UInt8]) throws {
        let start = position
        position += 1
        guard let letter = peek() else { throw WireJSONError(.invalidEscape, at: start) }
        position += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(letter)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHexQuad(escapeStart: start)
            if (0xDC00...0xDFFF).contains(scalar) { throw WireJSONError(.loneSurrogate, at: start) }
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate counts only with a low one right after it.
                guard end - position >= 2, base[position] == UInt8(ascii: "\\"), base[position + 1] == UInt8(ascii: "u") else {
                    throw WireJSONError(.loneSurrogate, at: start)
                }
                position += 2
                let low = try readHexQuad(escapeStart: start)
                guard (0xDC00...0xDFFF).contains(low) else { throw WireJSONError(.loneSurrogate, at: start) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            Self.appendUTF8(of: scalar, to: &output)
        default:
            throw WireJSONError(.invalidEscape, at: start)
        }
    }

    private mutating func readHexQuad(escapeStart: Int) throws -> UInt32 {
        guard end - position >= 4 else { throw WireJSONError(.invalidEscape, at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = base[position]
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: throw WireJSONError(.invalidEscape, at: escapeStart)
            }
            value = value << 4 | UInt32(nibble)
            position += 1
        }
        return value
    }

    private static func appendUTF8(of scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(scalar))
        case ..<0x800:
            output.append(0xC0 | UInt8(scalar >> 6))
            output.append(0x80 | UInt8(scalar & 0x3F))
        case ..<0x10000:
            output.append(0xE0 | UInt8(scalar >> 12))
            output.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        default:
            output.append(0xF0 | UInt8(scalar >> 18))
            output.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            output.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    /// Steps over one well-formed UTF-8 sequence of two to four bytes (Unicode 15, table
    /// 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
    private mutating func skipUTF8Sequence() throws {
        let lead = base[position]
        let count: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0:
            count = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED:
            count = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            count = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: count = 4
        case 0xF4:
            count = 4
            secondRange = 0x80...0x8F
        default: throw failure(.invalidUTF8)
        }
        guard end - position >= count, secondRange.contains(base[position + 1]) else { throw failure(.invalidUTF8) }
        for offset in 2..<count where base[position + offset] & 0xC0 != 0x80 { throw failure(.invalidUTF8) }
        position += count
    }

    private func failure(_ reason: WireJSONError.Reason) -> WireJSONError {
        position >= end && reason != .trailingBytes ? WireJSONError(.unexpectedEnd, at: position) : WireJSONError(reason, at: position)
    }
}
