/// The decimal digits OpenJDK 17's `Double.toString` and `Float.toString` write for a
/// finite number, and the text they make of them.
///
/// Android's libcore, and every desktop JDK before 19, converts with the
/// `FloatingDecimal` algorithm (`BinaryToASCIIBuffer.dtoa`), which is not always the
/// shortest round-trip form: `Float(123456789)` is `1.23456792E8`, `1e23` is
/// `9.999999999999999E22`. The same number must give the same string on iOS and on
/// Android, so this reproduces that algorithm step by step, including its quirks:
///
/// - an estimate of the decimal exponent from a linear approximation of log10,
///   corrected when the first digit comes out zero;
/// - whole numbers below 2^63 written from a 64-bit integer, with the digits below the
///   number's precision rounded off (half up);
/// - otherwise digits generated from `B / S` with a margin `M` of half an ulp (a
///   quarter below a power of two), stopping when the rest is within the margin on
///   either side, in 32-bit, 64-bit or exact arithmetic depending on the sizes. The
///   32- and 64-bit variants wrap on overflow and test `B + M > 10·S` where the exact
///   one tests `>=`; both are kept as they are, since they decide the last digit;
/// - at least two digits when the result is written in scientific form, except for
///   10^7 <= |x| < 10^8, which the original's exponent test leaves out.
///
/// The digits live inline (no heap allocation); only the final `String` is created.
struct JavaDecimalDigits {
    /// ASCII digits, most significant first.
    private var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)
    private(set) var count = 0
    /// The value is `0.d1d2d3... × 10^decimalExponent`.
    private(set) var decimalExponent = 0

    static let capacity = 24

    /// The digits of a positive finite number `significand × 2^(binaryExponent - 52)`,
    /// where bit 52 of `significand` is set and `significantBits` is the precision of
    /// the type it came from (53, 24, or fewer for subnormals).
    init(significand: UInt64, binaryExponent: Int, significantBits: Int) {
        let trailingZeros = significand.trailingZeroBitCount
        let fractionBits = 53 - trailingZeros
        let bitsRightOfPoint = max(0, fractionBits - binaryExponent - 1)

        if bitsRightOfPoint == 0 && binaryExponent <= 62 {
            var insignificant = 0
            if binaryExponent > significantBits {
                insignificant = Self.insignificantDigits(forPowerOfTwo: binaryExponent - significantBits - 1)
            }
            let whole = binaryExponent >= 52 ? significand << (binaryExponent - 52) : significand >> (52 - binaryExponent)
            appendDigits(of: whole, dropping: insignificant)
            return
        }

        var decimalExponent = Self.estimateDecimalExponent(significand: significand, binaryExponent: binaryExponent)
        let fivesInB = max(0, -decimalExponent)
        var twosInB = fivesInB + bitsRightOfPoint + binaryExponent
        let fivesInS = max(0, decimalExponent)
        var twosInS = fivesInS + bitsRightOfPoint
        let fivesInM = fivesInB
        var twosInM = twosInB - significantBits

        let oddSignificand = significand >> trailingZeros
        twosInB -= fractionBits - 1
        let commonTwos = min(twosInB, twosInS)
        twosInB -= commonTwos
        twosInS -= commonTwos
        twosInM -= commonTwos
        // Below a power of two the next smaller number is half as far away.
        if fractionBits == 1 { twosInM -= 1 }
        if twosInM < 0 {
            twosInB -= twosInM
            twosInS -= twosInM
            twosInM = 0
        }

        let bitsOfB = fractionBits + twosInB + Self.approximateBits(ofPowerOfFive: fivesInB)
        let bitsOfTenS = twosInS + 1 + Self.approximateBits(ofPowerOfFive: fivesInS + 1)
        let digits = DigitSource(
            significand: oddSignificand, fivesInB: fivesInB, twosInB: twosInB, fivesInS: fivesInS, twosInS: twosInS,
            fivesInM: fivesInM, twosInM: twosInM)
        let outcome: DigitOutcome
        if bitsOfB < 32 && bitsOfTenS < 32 {
            outcome = generate(digits, as: Int32.self, decimalExponent: &decimalExponent)
        } else if bitsOfB < 64 && bitsOfTenS < 64 {
            outcome = generate(digits, as: Int64.self, decimalExponent: &decimalExponent)
        } else {
            outcome = generateExactly(digits, decimalExponent: &decimalExponent)
        }

        self.decimalExponent = decimalExponent + 1
        if outcome.high {
            if outcome.low {
                if outcome.lowDigitDifference == 0 {
                    if digit(at: count - 1) & 1 != 0 { roundUp() }
                } else if outcome.lowDigitDifference > 0 {
                    roundUp()
                }
            } else {
                roundUp()
            }
        }
    }

    /// The digits of `|value|`, which must be finite (Java's `getBinaryToASCIIConverter(double)`).
    init(magnitudeOf value: Double) {
        let fraction = value.bitPattern & 0x000F_FFFF_FFFF_FFFF
        let biasedExponent = Int(value.bitPattern >> 52) & 0x7FF
        if biasedExponent == 0 {
            guard fraction != 0 else {
                self = .zero
                return
            }
            // Subnormal: shift the highest set bit up to bit 52.
            let shift = fraction.leadingZeroBitCount - 11
            self.init(significand: fraction << shift, binaryExponent: 1 - shift - 1023, significantBits: 64 - fraction.leadingZeroBitCount)
        } else {
            self.init(significand: fraction | 1 << 52, binaryExponent: biasedExponent - 1023, significantBits: 53)
        }
    }

    /// The digits of `|value|`, which must be finite (Java's `getBinaryToASCIIConverter(float)`):
    /// the same algorithm with the float's significand moved up to a double's position
    /// and its own precision.
    init(magnitudeOf value: Float) {
        let fraction = value.bitPattern & 0x007F_FFFF
        let biasedExponent = Int(value.bitPattern >> 23) & 0xFF
        if biasedExponent == 0 {
            guard fraction != 0 else {
                self = .zero
                return
            }
            let shift = fraction.leadingZeroBitCount - 8
            self.init(
                significand: UInt64(fraction << shift) << 29, binaryExponent: 1 - shift - 127,
                significantBits: 32 - fraction.leadingZeroBitCount)
        } else {
            self.init(significand: UInt64(fraction | 1 << 23) << 29, binaryExponent: biasedExponent - 127, significantBits: 24)
        }
    }

    /// The single digit `0`, for zeros.
    static let zero: JavaDecimalDigits = {
        var digits = JavaDecimalDigits()
        digits.append(0)
        return digits
    }()

    private init() {}

    func digit(at index: Int) -> UInt8 {
        withUnsafeBytes(of: storage) { $0[index] } &- UInt8(ascii: "0")
    }

    // MARK: - Whole numbers

    /// Java's `developLongDigits`: the digits of `whole` without trailing zeros, after
    /// rounding off `dropping` low digits (half up).
    private mutating func appendDigits(of whole: UInt64, dropping insignificant: Int) {
        var value = whole
        var exponent = 0
        if insignificant != 0 {
            let divisor = Self.longPowersOfFive[insignificant] << insignificant
            let residue = value % divisor
            value /= divisor
            exponent += insignificant
            if residue >= divisor >> 1 { value += 1 }
        }
        var reversed: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var length = 0
        withUnsafeMutableBytes(of: &reversed) { bytes in
            while value % 10 == 0 {
                value /= 10
                exponent += 1
            }
            while value != 0 {
                bytes[length] = UInt8(value % 10)
                length += 1
                value /= 10
            }
        }
        for index in stride(from: length - 1, through: 0, by: -1) {
            append(withUnsafeBytes(of: reversed) { $0[index] })
        }
        decimalExponent = exponent + length
    }

    // MARK: - Digit generation

    /// `B`, `S` and `M` as `value × 5^fives × 2^twos`.
    private struct DigitSource {
        let significand: UInt64
        let fivesInB: Int
        let twosInB: Int
        let fivesInS: Int
        let twosInS: Int
        let fivesInM: Int
        let twosInM: Int
    }

    private struct DigitOutcome {
        let low: Bool
        let high: Bool
        /// The sign of `2·B - 10·S` when the loop stopped: which neighbour is closer.
        let lowDigitDifference: Int64
    }

    /// The 32- and 64-bit loops, with Java's wrapping `int`/`long` arithmetic.
    private mutating func generate<Word: FixedWidthInteger & SignedInteger>(
        _ source: DigitSource, as _: Word.Type, decimalExponent: inout Int
    ) -> DigitOutcome {
        let smallPowers = Word.bitWidth == 32 ? Self.intPowersOfFive : Self.longPowersOfFive
        var b = (Word(truncatingIfNeeded: source.significand) &* Word(truncatingIfNeeded: smallPowers[source.fivesInB])) &<< source.twosInB
        let s = Word(truncatingIfNeeded: smallPowers[source.fivesInS]) &<< source.twosInS
        var m = Word(truncatingIfNeeded: smallPowers[source.fivesInM]) &<< source.twosInM
        let tenS = s &* 10

        var quotient = b / s
        b = 10 &* (b % s)
        m = m &* 10
        var low = b < m
        var high = b &+ m > tenS
        if quotient == 0 && !high {
            decimalExponent -= 1
        } else {
            append(quotient)
        }
        if decimalExponent < -3 || decimalExponent >= 8 {
            low = false
            high = false
        }
        while !low && !high {
            quotient = b / s
            b = 10 &* (b % s)
            m = m &* 10
            if m > 0 {
                low = b < m
                high = b &+ m > tenS
            } else {
                // Java's comment: m overflowed, so it is certainly past both bounds.
                low = true
                high = true
            }
            append(quotient)
        }
        return DigitOutcome(low: low, high: high, lowDigitDifference: Int64((b &<< 1) &- tenS))
    }

    /// The exact loop (Java's `FDBigInteger` path), for numbers whose `B` or `10·S`
    /// do not fit in 64 bits. Every value fits in 20 limbs (the largest need about 13).
    private mutating func generateExactly(_ source: DigitSource, decimalExponent: inout Int) -> DigitOutcome {
        let limbs = 20
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 5 * limbs) { storage in
            let base = storage.baseAddress!
            var b = FixedCapacityNatural(storage: base, capacity: limbs)
            var s = FixedCapacityNatural(storage: base + limbs, capacity: limbs)
            var m = FixedCapacityNatural(storage: base + 2 * limbs, capacity: limbs)
            var tenS = FixedCapacityNatural(storage: base + 3 * limbs, capacity: limbs)
            var scratch = FixedCapacityNatural(storage: base + 4 * limbs, capacity: limbs)
            b.set(source.significand, fives: source.fivesInB, twos: source.twosInB)
            s.set(1, fives: source.fivesInS, twos: source.twosInS)
            m.set(10, fives: source.fivesInM, twos: source.twosInM)
            tenS.set(10, fives: source.fivesInS, twos: source.twosInS)

            func nextDigit() -> Int {
                let quotient = b.divideReturningSmallQuotient(by: s)
                b.multiply(by: 10)
                return quotient
            }
            func reachesHigh() -> Bool {
                scratch.setSum(b, m)
                return scratch.compare(to: tenS) >= 0
            }

            var quotient = nextDigit()
            var low = b.compare(to: m) < 0
            var high = reachesHigh()
            if quotient == 0 && !high {
                decimalExponent -= 1
            } else {
                append(quotient)
            }
            if decimalExponent < -3 || decimalExponent >= 8 {
                low = false
                high = false
            }
            while !low && !high {
                quotient = nextDigit()
                m.multiply(by: 10)
                low = b.compare(to: m) < 0
                high = reachesHigh()
                append(quotient)
            }
            var difference: Int64 = 0
            if high && low {
                scratch.set(b)
                scratch.shiftLeft(by: 1)
                difference = Int64(scratch.compare(to: tenS))
            }
            return DigitOutcome(low: low, high: high, lowDigitDifference: difference)
        }
    }

    private mutating func append<Digit: BinaryInteger>(_ digit: Digit) {
        precondition(count < Self.capacity, "more decimal digits than a double has")
        let character = UInt8(truncatingIfNeeded: Int(digit) + Int(UInt8(ascii: "0")))
        withUnsafeMutableBytes(of: &storage) { $0[count] = character }
        count += 1
    }

    /// Adds one to the last digit. A carry out of the first digit leaves `10…0` with
    /// the same number of digits and a larger exponent, as Java's `roundup` does.
    private mutating func roundUp() {
        let last = count - 1
        let exponentBump = withUnsafeMutableBytes(of: &storage) { bytes -> Int in
            var index = last
            while bytes[index] == UInt8(ascii: "9") && index > 0 {
                bytes[index] = UInt8(ascii: "0")
                index -= 1
            }
            if bytes[index] == UInt8(ascii: "9") {
                bytes[0] = UInt8(ascii: "1")
                return 1
            }
            bytes[index] += 1
            return 0
        }
        decimalExponent += exponentBump
    }

    // MARK: - Java's constants and estimates

    /// `floor(log10(x))` or one more, from a linear approximation of log10 of the
    /// significand plus `binaryExponent × log10(2)`, in the same double arithmetic as
    /// Java's `estimateDecExp`.
    private static func estimateDecimalExponent(significand: UInt64, binaryExponent: Int) -> Int {
        let unitRange = Double(bitPattern: 0x3FF0_0000_0000_0000 | (significand & 0x000F_FFFF_FFFF_FFFF))
        let estimate = (unitRange - 1.5) * 0.289529654 + 0.176091259 + Double(binaryExponent) * 0.301029995663981
        return Int(estimate.rounded(.down))
    }

    /// Java's bit-size estimate for `5^n` (`N_5_BITS`, then `3n` past its end).
    private static func approximateBits(ofPowerOfFive exponent: Int) -> Int {
        exponent < approximateBitsOfPowersOfFive.count ? approximateBitsOfPowersOfFive[exponent] : exponent * 3
    }

    private static let approximateBitsOfPowersOfFive = [
        0, 3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31, 33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56, 59, 61,
    ]

    /// The number of decimal digits below the precision of a whole number whose lowest
    /// significant bit is worth `2^(power + 1)`; Java's table, which counts only from 2^2.
    private static func insignificantDigits(forPowerOfTwo power: Int) -> Int {
        guard power > 1 && power < insignificantDigitsOfPowersOfTwo.count else { return 0 }
        return insignificantDigitsOfPowersOfTwo[power]
    }

    private static let insignificantDigitsOfPowersOfTwo = [
        0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7,
        8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14,
        15, 15, 15, 15, 16, 16, 16, 17, 17, 17, 18, 18, 18, 19,
    ]

    private static let intPowersOfFive: [UInt64] = (0...13).map { power in (0..<power).reduce(1) { product, _ in product * 5 } }
    private static let longPowersOfFive: [UInt64] = (0...26).map { power in (0..<power).reduce(1) { product, _ in product * 5 } }
}
