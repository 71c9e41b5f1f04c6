import ZeroPiiCrypto

/// A keyed permutation of strings that preserves their format and has no fixed points
/// (Docs/Protocol.md section 10).
///
/// A value is either a number in a form of section 4 (``NumberFormatCheck``) or a
/// string. A number's token is a number of the same shape: only its digits change, each
/// within the digits its place allows (no leading zero, never `-0`), so `-`, `.` and
/// `E` stay. In a string, every letter or number becomes another member of its
/// ``TokenAlphabets`` alphabet (ASCII digits, `A`–`Z` and `a`–`z` are three of them),
/// and every other character stays. The replaceable characters of one format form a
/// vector in mixed radix, and the token is the next value after the value's in a keyed
/// order of that format: `F⁻¹(F(x) + 1)`, where `F` is an 8-round Feistel network over
/// the vector (the structure of FF1, NIST SP 800-38G, with a mixed radix) and `+ 1`
/// counts on in mixed radix, wrapping at the end. Conjugating that one cycle through
/// all values by `F` gives one cycle through all values again, so the token function
/// is a permutation of each format, with no fixed point when the format has two or
/// more values.
///
/// Numbers and strings stay apart: a number's token is a number, and a string's token
/// is never one. A string whose format can hold numbers (`007`, `-0`, `1.5E05`) steps
/// on along its cycle past every number (cycle walking), which is a permutation of the
/// format's strings, again one cycle. So two different values never share a token.
struct FormatPreservingCipher: Sendable {
    static let rounds = 8

    private let roundFunction: any FeistelRoundFunction
    /// Whether a number's token stays within the types its value fits (``NumberTypeFit``;
    /// vault format 4 and later). Older vaults keep the tokens they gave.
    private let numbersKeepTheirTypes: Bool
    /// Which edition of the alphabets a string's letters are replaced within (vault
    /// format 5 and later: the readable one).
    private let alphabets: TokenAlphabets.Edition

    /// The most steps a number's walk takes before it settles for the first step's token.
    /// A class holds a sizeable share of its format in every shape section 4 writes (the
    /// sparsest measured, subnormal doubles, about one in a hundred), so the limit is
    /// never reached in practice; it only bounds the work for a shape nobody sends.
    static let longestNumberWalk = 1_000_000

    init(roundFunction: any FeistelRoundFunction, numbersKeepTheirTypes: Bool = false, alphabets: TokenAlphabets.Edition = .joined) {
        self.roundFunction = roundFunction
        self.numbersKeepTheirTypes = numbersKeepTheirTypes
        self.alphabets = alphabets
    }

    /// What may change in a value: the positions of its replaceable characters, each
    /// one's radix and symbol, and a format description that keys the permutation.
    private struct Domain {
        var positions: [Int] = []
        var radices: [Int] = []
        var symbols: [Int] = []
        /// For a number, the lowest digit of each position; empty for a string.
        var lowestDigits: [UInt32] = []
        /// For a string, the alphabet of each position; empty for a number.
        var alphabets: [TokenAlphabet] = []
        var format: [UInt8] = []
        var isNumber = false
        /// Whether some value of this string format is a number, so walks must skip them.
        var mayHoldNumbers = false
    }

    /// The token for `value`.
    func encrypt(_ value: String) -> String {
        var scalars = Array(value.unicodeScalars)
        let domain = Self.domain(of: scalars, alphabets: alphabets)
        guard !domain.symbols.isEmpty else { return value }
        var symbols = domain.symbols
        let tweak = roundFunction.tweak(for: domain.format)
        let radices = domain.radices.map(Radix.init)
        // The rounds work on buffers, not arrays: no slice, copy-on-write check or
        // bounds check per round, and one scratch area for every round's words.
        let typeFit = numbersKeepTheirTypes && domain.isNumber ? NumberTypeFit(value) : nil
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: symbols.count) { words in
            radices.withUnsafeBufferPointer { radices in
                var steps = 0
                var firstStep: [Unicode.Scalar]?
                repeat {
                    symbols.withUnsafeMutableBufferPointer { symbols in
                        step(symbols, radices: radices, tweak: tweak, words: words)
                    }
                    Self.render(symbols, domain: domain, alphabets: alphabets, into: &scalars)
                    steps += 1
                    if steps == 1 && typeFit != nil { firstStep = scalars }
                } while Self.walksOn(from: scalars, domain: domain, typeFit: typeFit)
                    && (typeFit == nil || steps < Self.longestNumberWalk)
                if let typeFit, let firstStep, NumberTypeFit(Self.asciiText(scalars)) != typeFit { scalars = firstStep }
            }
        }
        // Encoded by hand: appending to a `String.UnicodeScalarView` took a quarter of
        // this function's time, one generic step per character.
        var utf8: [UInt8] = []
        utf8.reserveCapacity(4 * scalars.count)
        for scalar in scalars {
            let code = scalar.value
            switch code {
            case 0..<0x80:
                utf8.append(UInt8(truncatingIfNeeded: code))
            case 0x80..<0x800:
                utf8.append(0xC0 | UInt8(truncatingIfNeeded: code >> 6))
                utf8.append(0x80 | UInt8(truncatingIfNeeded: code & 0x3F))
            case 0x800..<0x10000:
                utf8.append(0xE0 | UInt8(truncatingIfNeeded: code >> 12))
                utf8.append(0x80 | UInt8(truncatingIfNeeded: (code >> 6) & 0x3F))
                utf8.append(0x80 | UInt8(truncatingIfNeeded: code & 0x3F))
            default:
                utf8.append(0xF0 | UInt8(truncatingIfNeeded: code >> 18))
                utf8.append(0x80 | UInt8(truncatingIfNeeded: (code >> 12) & 0x3F))
                utf8.append(0x80 | UInt8(truncatingIfNeeded: (code >> 6) & 0x3F))
                utf8.append(0x80 | UInt8(truncatingIfNeeded: code & 0x3F))
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Whether the walk goes past `scalars`: a string's token may not be a number, and
    /// with `typeFit`, a number's token must be of its value's class.
    private static func walksOn(from scalars: [Unicode.Scalar], domain: Domain, typeFit: NumberTypeFit?) -> Bool {
        if let typeFit { return NumberTypeFit(asciiText(scalars)) != typeFit }
        return domain.mayHoldNumbers && NumberFormatCheck.isNumber(scalars)
    }

    /// A number's characters, all ASCII, as text.
    private static func asciiText(_ scalars: [Unicode.Scalar]) -> String {
        String(decoding: scalars.map { UInt8(truncatingIfNeeded: $0.value) }, as: UTF8.self)
    }

    private static func append(_ word: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: word >> 24))
        bytes.append(UInt8(truncatingIfNeeded: word >> 16))
        bytes.append(UInt8(truncatingIfNeeded: word >> 8))
        bytes.append(UInt8(truncatingIfNeeded: word))
    }

    private static func domain(of scalars: [Unicode.Scalar], alphabets edition: TokenAlphabets.Edition) -> Domain {
        var domain = Domain()
        domain.positions.reserveCapacity(scalars.count)
        domain.radices.reserveCapacity(scalars.count)
        domain.symbols.reserveCapacity(scalars.count)
        if let digits = NumberFormatCheck.digits(of: scalars) {
            domain.isNumber = true
            domain.format = [0x4E]  // N
            for scalar in scalars { domain.format.append(UInt8(truncatingIfNeeded: scalar.value)) }
            for digit in digits {
                domain.format[digit.position + 1] = UInt8(0x61 + digit.lowest)  // a: any digit, b: 1 to 9
                domain.positions.append(digit.position)
                domain.radices.append(10 - Int(digit.lowest))
                domain.symbols.append(Int(scalars[digit.position].value - 0x30 - digit.lowest))
                domain.lowestDigits.append(digit.lowest)
            }
            return domain
        }
        domain.format = [0x53]  // S
        domain.format.reserveCapacity(1 + 5 * scalars.count)
        domain.mayHoldNumbers = true
        var position = -1
        for scalar in scalars {
            position += 1
            if let (alphabet, index) = TokenAlphabets.classify(scalar, in: edition) {
                Self.append(0x01, alphabet.identifier, to: &domain.format)
                if alphabet != .asciiDigits && alphabet != .asciiUppercase { domain.mayHoldNumbers = false }
                // A member of a one-letter alphabet has nothing to become; it stays.
                guard alphabet.size > 1 else { continue }
                domain.positions.append(position)
                domain.radices.append(alphabet.size)
                domain.symbols.append(index)
                domain.alphabets.append(alphabet)
            } else {
                Self.append(0x00, scalar.value, to: &domain.format)
                if scalar != "-" && scalar != "." { domain.mayHoldNumbers = false }
            }
        }
        return domain
    }

    private static func append(_ tag: UInt8, _ word: UInt32, to bytes: inout [UInt8]) {
        bytes.append(tag)
        append(word, to: &bytes)
    }

    private static func render(
        _ symbols: [Int], domain: Domain, alphabets edition: TokenAlphabets.Edition, into scalars: inout [Unicode.Scalar]
    ) {
        var offset = 0
        while offset < symbols.count {
            let position = domain.positions[offset]
            if domain.isNumber {
                scalars[position] = Unicode.Scalar(0x30 + domain.lowestDigits[offset] + UInt32(symbols[offset]))!
            } else {
                scalars[position] = TokenAlphabets.scalar(at: symbols[offset], of: domain.alphabets[offset], in: edition)
            }
            offset += 1
        }
    }

    // MARK: The cycle

    /// Moves `symbols` to the next value in the format's keyed cycle: `F⁻¹(F(x) + 1)`.
    private func step(
        _ symbols: UnsafeMutableBufferPointer<Int>, radices: UnsafeBufferPointer<Radix>, tweak: FormatTweak,
        words: UnsafeMutableBufferPointer<UInt32>
    ) {
        if symbols.count == 1 {
            let radix = radices[0].value
            let permuted = permuteSingle(symbols[0], radix: radix, inverse: false, tweak: tweak, words: words)
            symbols[0] = permuteSingle((permuted + 1) % radix, radix: radix, inverse: true, tweak: tweak, words: words)
            return
        }
        feistel(symbols, radices: radices, inverse: false, tweak: tweak, words: words)
        var position = symbols.count - 1
        while position >= 0 {
            symbols[position] += 1
            if symbols[position] < radices[position].value { break }
            symbols[position] = 0
            position -= 1
        }
        feistel(symbols, radices: radices, inverse: true, tweak: tweak, words: words)
    }

    /// A keyed permutation of `0..<radix`, for a format with one replaceable character: a
    /// Feistel network over two digits whose product covers the radix, walked until it
    /// lands inside it.
    private func permuteSingle(_ symbol: Int, radix: Int, inverse: Bool, tweak: FormatTweak, words: UnsafeMutableBufferPointer<UInt32>) -> Int {
        var high = 1
        while high * high < radix { high += 1 }
        let low = (radix + high - 1) / high
        let radices = [Radix(high), Radix(low)]
        var pair = [0, 0]
        var value = symbol
        radices.withUnsafeBufferPointer { radices in
            repeat {
                pair[0] = value / low
                pair[1] = value % low
                pair.withUnsafeMutableBufferPointer { pair in
                    feistel(pair, radices: radices, inverse: inverse, tweak: tweak, words: words)
                }
                value = pair[0] * low + pair[1]
            } while value >= radix
        }
        return value
    }

    /// An 8-round Feistel network over a mixed-radix vector of two or more positions: each
    /// round adds to one half, position by position and modulo each position's radix,
    /// pseudorandom words computed from the other half, the round number and the format's
    /// tweak.
    private func feistel(
        _ symbols: UnsafeMutableBufferPointer<Int>, radices: UnsafeBufferPointer<Radix>, inverse: Bool, tweak: FormatTweak,
        words: UnsafeMutableBufferPointer<UInt32>
    ) {
        // Plain loops over indices: this is the vault's hot loop, and debug builds (the
        // test suite's) run generic range iteration many times slower.
        let count = symbols.count
        let split = count / 2
        var step = 0
        while step < Self.rounds {
            let round = inverse ? Self.rounds - 1 - step : step
            let targetStart = round % 2 == 0 ? 0 : split
            let targetEnd = round % 2 == 0 ? split : count
            let sourceStart = round % 2 == 0 ? split : 0
            let sourceEnd = round % 2 == 0 ? count : split
            let roundWords = UnsafeMutableBufferPointer(rebasing: words[0..<(targetEnd - targetStart)])
            roundFunction.words(
                round: round, tweak: tweak, source: UnsafeBufferPointer(rebasing: symbols[sourceStart..<sourceEnd]), into: roundWords)
            var position = targetStart
            while position < targetEnd {
                let radix = radices[position]
                let offset = radix.remainder(roundWords[position &- targetStart])
                symbols[position] = inverse ? radix.subtracting(offset, from: symbols[position]) : radix.adding(offset, to: symbols[position])
                position &+= 1
            }
            step += 1
        }
    }
}
