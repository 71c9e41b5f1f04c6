import Foundation
import ZeroPiiCrypto

/// A keyed permutation of strings that preserves their format: the same length, each
/// ASCII digit replaced by a digit, each `a`–`z` by a letter `a`–`z`, each `A`–`Z` by a
/// letter `A`–`Z`, and every other character left where it is.
///
/// The tokenizable characters form a vector of symbols in mixed radix (10 or 26 per
/// position). A Feistel network permutes that vector: the positions are split in two
/// halves, and each of 8 rounds adds to one half, position by position and modulo each
/// position's radix, a pseudorandom vector computed from the other half, the round
/// number and the value's format. Every round is invertible, so the
/// whole is a permutation of the values of one format: two different values of the
/// same format never get the same token, and values of different formats get tokens of
/// different formats. This is the structure of FF1 (NIST SP 800-38G) with a mixed radix;
/// a single tokenizable character is permuted with a keyed shuffle instead, since a
/// Feistel network needs two halves.
///
/// The round function is SHA-256 keyed through its chaining value: the key fills the
/// first block, whose compressed state is kept, and each call hashes one length-prefixed
/// (so prefix-free) message on from there. That is the inner half of HMAC, the keyed
/// compression function whose pseudorandomness HMAC's own proof rests on, at one
/// compression per call instead of two: the vault's hot loop.
struct FormatPreservingCipher: Sendable {
    static let rounds = 8

    private let keyedState: SHA256

    init(key: SymmetricKey) {
        var state = SHA256()
        var block = [UInt8](repeating: 0, count: SHA256.blockByteCount)
        key.withUnsafeBytes { keyBytes in
            for index in 0..<min(keyBytes.count, block.count) { block[index] = keyBytes[index] }
        }
        block.withUnsafeBytes { state.update(bufferPointer: $0) }
        keyedState = state
    }

    /// The token for `value`. A decimal number (PROTOCOL.md section 4 form) has only its
    /// digits replaced, so the `E` of an exponent stays and the token is a number too.
    func encrypt(_ value: String) -> String {
        let digitsOnly = NumberFormatCheck.isNumber(value)
        var scalars = Array(value.unicodeScalars)
        var positions: [Int] = []
        var symbols: [Int] = []
        var radices: [Int] = []
        var format = [UInt8]()
        format.reserveCapacity(scalars.count)
        for (index, scalar) in scalars.enumerated() {
            if let (symbol, radix, marker) = Self.classify(scalar), !digitsOnly || radix == 10 {
                positions.append(index)
                symbols.append(symbol)
                radices.append(radix)
                format.append(marker)
            } else {
                format.append(contentsOf: Array(String(scalar).utf8))
            }
        }
        guard !symbols.isEmpty else { return value }
        let permuted =
            symbols.count == 1
            ? [shuffle(symbols[0], radix: radices[0], format: format)]
            : feistel(symbols, radices: radices, format: format)
        for (offset, position) in positions.enumerated() {
            scalars[position] = Self.scalar(for: permuted[offset], like: scalars[position])
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    private func feistel(_ input: [Int], radices: [Int], format: [UInt8]) -> [Int] {
        var symbols = input
        let split = symbols.count / 2
        // One message buffer for all rounds: this loop runs eight times per value.
        var message = [UInt8]()
        message.reserveCapacity(8 + format.count + symbols.count)
        for round in 0..<Self.rounds {
            let (target, source) = round % 2 == 0 ? (0..<split, split..<symbols.count) : (split..<symbols.count, 0..<split)
            message.removeAll(keepingCapacity: true)
            Self.appendHeader(round: round, format: format, to: &message)
            for position in source { message.append(UInt8(truncatingIfNeeded: symbols[position])) }
            var produced = 0
            var block: UInt32 = 0
            while produced < target.count {
                hashBlock(message, counter: block).withUnsafeBytes { code in
                    var index = 0
                    while index + 1 < code.count && produced < target.count {
                        let position = target.lowerBound + produced
                        let radix = radices[position]
                        let offset = Int(UInt16(code[index]) << 8 | UInt16(code[index + 1])) % radix
                        symbols[position] = (symbols[position] + offset) % radix
                        produced += 1
                        index += 2
                    }
                }
                block += 1
            }
        }
        return symbols
    }

    /// The keyed hash of `message` followed by a 32-bit block counter.
    private func hashBlock(_ message: [UInt8], counter: UInt32) -> SHA256Digest {
        var hash = keyedState
        message.withUnsafeBytes { hash.update(bufferPointer: $0) }
        withUnsafeBytes(of: counter.bigEndian) { hash.update(bufferPointer: $0) }
        return hash.finalize()
    }

    /// The round number and the length-prefixed format: with them the messages of one
    /// format are all the same length, and those of different formats differ in prefix.
    private static func appendHeader(round: Int, format: [UInt8], to message: inout [UInt8]) {
        withUnsafeBytes(of: Int32(round).bigEndian) { message.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(format.count).bigEndian) { message.append(contentsOf: $0) }
        message.append(contentsOf: format)
    }

    /// A keyed permutation of 0..<radix (Fisher–Yates driven by HMAC output).
    private func shuffle(_ symbol: Int, radix: Int, format: [UInt8]) -> Int {
        var table = Array(0..<radix)
        let stream = pseudorandomStream(round: -1, format: format, count: radix)
        for index in stride(from: radix - 1, to: 0, by: -1) {
            table.swapAt(index, Int(stream[index]) % (index + 1))
        }
        return table[symbol]
    }

    /// `count` pseudorandom 16-bit numbers for the single-character shuffle.
    private func pseudorandomStream(round: Int, format: [UInt8], count: Int) -> [UInt16] {
        var message = [UInt8]()
        Self.appendHeader(round: round, format: format, to: &message)
        var output: [UInt16] = []
        output.reserveCapacity(count)
        var block: UInt32 = 0
        while output.count < count {
            hashBlock(message, counter: block).withUnsafeBytes { code in
                var index = 0
                while index + 1 < code.count && output.count < count {
                    output.append(UInt16(code[index]) << 8 | UInt16(code[index + 1]))
                    index += 2
                }
            }
            block += 1
        }
        return output
    }

    /// Symbol, radix and format marker of a tokenizable character; nil for the rest.
    private static func classify(_ scalar: Unicode.Scalar) -> (Int, Int, UInt8)? {
        switch scalar.value {
        case 0x30...0x39: return (Int(scalar.value - 0x30), 10, 0x39)
        case 0x61...0x7A: return (Int(scalar.value - 0x61), 26, 0x61)
        case 0x41...0x5A: return (Int(scalar.value - 0x41), 26, 0x41)
        default: return nil
        }
    }

    private static func scalar(for symbol: Int, like original: Unicode.Scalar) -> Unicode.Scalar {
        let base: UInt32
        switch original.value {
        case 0x30...0x39: base = 0x30
        case 0x61...0x7A: base = 0x61
        default: base = 0x41
        }
        return Unicode.Scalar(base + UInt32(symbol))!
    }
}
