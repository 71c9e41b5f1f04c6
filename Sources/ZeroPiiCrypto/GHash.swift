/// GHASH, the universal hash of GCM (NIST SP 800-38D, section 6.4), in constant time.
///
/// Multiplication in GF(2^128) needs carry-less products, which portable code cannot
/// ask the CPU for. They are built from ordinary integer multiplications instead:
/// each 64-bit operand is split into four "combs" holding every fourth bit. In the
/// low 64 bits of the integer product of two combs, at most 15 one-bits meet in any
/// position below bit 60 and 16 at bit 60 and above, so a position's sum fits in the
/// four bits up to the next position of the same comb, except a carry out of bit 63,
/// which falls off the word. Masking each product back to its comb leaves exactly the
/// low half of the carry-less product. The high half is the low half of the product
/// of the bit-reversed operands, reversed again: one more set of products, but each is
/// a plain 64-bit multiplication that the compiler can keep in any register, where a
/// full-width (128-bit) product ties up two fixed registers on x86-64 and made the
/// previous five-comb version spend more instructions moving values than multiplying.
/// The 128-bit multiplication uses Karatsuba (three 64-bit products per half), and the
/// reduction works in GCM's bit-reflected order; the overall shape follows BearSSL's
/// `ghash_ctmul64`. Long inputs are hashed four blocks per reduction, with H², H³ and
/// H⁴ computed for that input and wiped after it.
///
/// There are no branches and no memory accesses that depend on the hash key or
/// the data.
struct GHash {
    /// The hash key H, pre-split into combs.
    private let key: KeyCombs

    /// The running value Y, as two big-endian halves: `high` is bytes 0..<8.
    private var accumulatorHigh: UInt64 = 0
    private var accumulatorLow: UInt64 = 0

    /// Creates a GHASH over the 16-byte hash key `key`.
    init(key: UnsafeRawPointer) {
        self.key = KeyCombs(
            high: UInt64(bigEndian: key.loadUnaligned(as: UInt64.self)),
            low: UInt64(bigEndian: key.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        )
    }

    /// A GHASH with the same key and nothing absorbed yet.
    func restarted() -> GHash {
        var copy = self
        copy.accumulatorHigh = 0
        copy.accumulatorLow = 0
        return copy
    }

    /// Zeroes the key (H, in every split form) and the running value. The instance
    /// must not be used afterwards.
    mutating func wipe() {
        Wipe.value(&self, .ghashKey)
    }

    /// Absorbs `count` bytes, zero-padding a final partial block (as GCM pads both the
    /// associated data and the ciphertext).
    mutating func update(_ bytes: UnsafeRawPointer, count: Int) {
        var offset = 0
        if count >= Self.aggregationThreshold {
            // Four blocks at a time: Y' = (Y ⊕ X1)·H⁴ ⊕ X2·H³ ⊕ X3·H² ⊕ X4·H. The products
            // are linear in their halves, so they are added up unreduced and reversed
            // back, shifted and reduced once per four blocks rather than once per block.
            // All three powers in the one variable that is wiped (no other copy of H²).
            var powers = (square: Self.product(key, key), cube: KeyCombs(high: 0, low: 0), fourth: KeyCombs(high: 0, low: 0))
            powers.cube = Self.product(powers.square, key)
            powers.fourth = Self.product(powers.square, powers.square)
            defer { Wipe.value(&powers, .ghashKey) }
            while offset &+ 64 <= count {
                @inline(__always) func word(_ index: Int) -> UInt64 {
                    UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset &+ 8 &* index, as: UInt64.self))
                }
                var product = UnreducedProduct()
                product.add(high: accumulatorHigh ^ word(0), low: accumulatorLow ^ word(1), times: powers.fourth)
                product.add(high: word(2), low: word(3), times: powers.cube)
                product.add(high: word(4), low: word(5), times: powers.square)
                product.add(high: word(6), low: word(7), times: key)
                (accumulatorHigh, accumulatorLow) = product.reduced()
                offset &+= 64
            }
        }
        while offset &+ 16 <= count {
            absorb(
                high: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
                low: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self))
            )
            offset &+= 16
        }
        let remaining = count &- offset
        if remaining > 0 {
            var padded: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &padded) { $0.baseAddress!.copyMemory(from: bytes + offset, byteCount: remaining) }
            absorb(high: UInt64(bigEndian: padded.0), low: UInt64(bigEndian: padded.1))
        }
    }

    /// Absorbs the final block of GCM: the bit lengths of the associated data and the text.
    mutating func updateLengths(associatedDataByteCount: Int, textByteCount: Int) {
        absorb(high: UInt64(associatedDataByteCount) &* 8, low: UInt64(textByteCount) &* 8)
    }

    /// The 16-byte hash value, written to `output`.
    func finalize(into output: UnsafeMutableRawPointer) {
        output.storeBytes(of: accumulatorHigh.bigEndian, as: UInt64.self)
        output.storeBytes(of: accumulatorLow.bigEndian, toByteOffset: 8, as: UInt64.self)
    }

    /// Y = (Y ⊕ X) · H.
    @inline(__always)
    private mutating func absorb(high: UInt64, low: UInt64) {
        var product = UnreducedProduct()
        product.add(high: accumulatorHigh ^ high, low: accumulatorLow ^ low, times: key)
        (accumulatorHigh, accumulatorLow) = product.reduced()
    }

    /// `multiplicand · multiplier` in GHASH's field, split into combs: for the powers of H.
    private static func product(_ multiplicand: KeyCombs, _ multiplier: KeyCombs) -> KeyCombs {
        var product = UnreducedProduct()
        product.add(high: multiplicand.high, low: multiplicand.low, times: multiplier)
        let (high, low) = product.reduced()
        return KeyCombs(high: high, low: low)
    }

    /// Inputs of at least this many bytes are hashed four blocks at a time. Below it,
    /// computing H², H³ and H⁴ (three multiplications) costs more than it saves.
    static let aggregationThreshold = 512

    /// One factor of a GHASH multiplication (H or a power of it), pre-split into combs
    /// for each Karatsuba operand, as is and bit-reversed.
    struct KeyCombs {
        let high: UInt64
        let low: UInt64
        let highCombs: Combs
        let lowCombs: Combs
        let sumCombs: Combs
        let reversedHighCombs: Combs
        let reversedLowCombs: Combs
        let reversedSumCombs: Combs

        @inline(__always)
        init(high: UInt64, low: UInt64) {
            self.high = high
            self.low = low
            highCombs = Combs(high)
            lowCombs = Combs(low)
            sumCombs = Combs(high ^ low)
            let reversedHigh = GHash.reversed(high)
            let reversedLow = GHash.reversed(low)
            reversedHighCombs = Combs(reversedHigh)
            reversedLowCombs = Combs(reversedLow)
            reversedSumCombs = Combs(reversedHigh ^ reversedLow)
        }
    }

    /// A sum of 128 × 128-bit carry-less products, kept as the six 64-bit Karatsuba
    /// terms (low halves directly, high halves from the reversed operands), not yet
    /// combined, reversed back or reduced. Every step after the multiplications is
    /// linear, so it is done once for the whole sum.
    struct UnreducedProduct {
        private var lowLow: UInt64 = 0
        private var highLow: UInt64 = 0
        private var sumLow: UInt64 = 0
        private var lowHighReversed: UInt64 = 0
        private var highHighReversed: UInt64 = 0
        private var sumHighReversed: UInt64 = 0

        /// Adds (`high`, `low`) · `factor`.
        @inline(__always)
        mutating func add(high: UInt64, low: UInt64, times factor: KeyCombs) {
            let reversedHigh = GHash.reversed(high)
            let reversedLow = GHash.reversed(low)
            lowLow ^= GHash.multiplyLow(low, factor.lowCombs)
            highLow ^= GHash.multiplyLow(high, factor.highCombs)
            sumLow ^= GHash.multiplyLow(low ^ high, factor.sumCombs)
            lowHighReversed ^= GHash.multiplyLow(reversedLow, factor.reversedLowCombs)
            highHighReversed ^= GHash.multiplyLow(reversedHigh, factor.reversedHighCombs)
            sumHighReversed ^= GHash.multiplyLow(reversedLow ^ reversedHigh, factor.reversedSumCombs)
        }

        /// The sum reduced modulo GHASH's polynomial, as (high, low) big-endian halves.
        @inline(__always)
        func reduced() -> (high: UInt64, low: UInt64) {
            // Karatsuba's middle terms, then the high halves reversed back (reversing a
            // 127-bit product and taking 64 bits leaves the high half one place to the
            // left, hence the shift).
            let middleLow = sumLow ^ lowLow ^ highLow
            let lowHigh = GHash.reversed(lowHighReversed) &>> 1
            let highHigh = GHash.reversed(highHighReversed) &>> 1
            let middleHigh = GHash.reversed(sumHighReversed ^ lowHighReversed ^ highHighReversed) &>> 1

            // The 255-bit product of the bit-reflected operands, v3 (most significant) to v0.
            var v0 = lowLow
            var v1 = lowHigh ^ middleLow
            var v2 = highLow ^ middleHigh
            var v3 = highHigh

            // Reflection leaves the product one bit short of 256; shift it into place.
            v3 = (v3 &<< 1) | (v2 &>> 63)
            v2 = (v2 &<< 1) | (v1 &>> 63)
            v1 = (v1 &<< 1) | (v0 &>> 63)
            v0 = v0 &<< 1

            // Reduce modulo x^128 + x^7 + x^2 + x + 1: each coefficient of x^(128+i) folds
            // onto x^i, x^(i+1), x^(i+2) and x^(i+7), which in reflected order are right shifts.
            v2 ^= v0 ^ (v0 &>> 1) ^ (v0 &>> 2) ^ (v0 &>> 7)
            v1 ^= (v0 &<< 63) ^ (v0 &<< 62) ^ (v0 &<< 57)
            v3 ^= v1 ^ (v1 &>> 1) ^ (v1 &>> 2) ^ (v1 &>> 7)
            v2 ^= (v1 &<< 63) ^ (v1 &<< 62) ^ (v1 &<< 57)
            return (v3, v2)
        }
    }

    /// A 64-bit operand split into four combs (bits whose index is 0, 1, 2 or 3 mod 4).
    struct Combs {
        let c0, c1, c2, c3: UInt64

        @inline(__always)
        init(_ value: UInt64) {
            c0 = value & GHash.comb0
            c1 = value & GHash.comb1
            c2 = value & GHash.comb2
            c3 = value & GHash.comb3
        }
    }

    private static let comb0: UInt64 = 0x1111_1111_1111_1111
    private static let comb1: UInt64 = 0x2222_2222_2222_2222
    private static let comb2: UInt64 = 0x4444_4444_4444_4444
    private static let comb3: UInt64 = 0x8888_8888_8888_8888

    /// The low 64 bits of the carry-less product of `x` and the operand split in `y`.
    @inline(__always)
    static func multiplyLow(_ x: UInt64, _ y: Combs) -> UInt64 {
        let x0 = x & comb0, x1 = x & comb1, x2 = x & comb2, x3 = x & comb3
        // Comb k of the result collects the products whose comb indices add up to k mod 4.
        let r0 = (x0 &* y.c0) ^ (x1 &* y.c3) ^ (x2 &* y.c2) ^ (x3 &* y.c1)
        let r1 = (x0 &* y.c1) ^ (x1 &* y.c0) ^ (x2 &* y.c3) ^ (x3 &* y.c2)
        let r2 = (x0 &* y.c2) ^ (x1 &* y.c1) ^ (x2 &* y.c0) ^ (x3 &* y.c3)
        let r3 = (x0 &* y.c3) ^ (x1 &* y.c2) ^ (x2 &* y.c1) ^ (x3 &* y.c0)
        return (r0 & comb0) | (r1 & comb1) | (r2 & comb2) | (r3 & comb3)
    }

    /// The whole 128-bit carry-less product of `x` and `y`, as GHASH forms it: the low
    /// half directly, the high half from the reversed operands.
    static func carrylessMultiply(_ x: UInt64, _ y: UInt64) -> (high: UInt64, low: UInt64) {
        let low = multiplyLow(x, Combs(y))
        let high = reversed(multiplyLow(reversed(x), Combs(reversed(y)))) &>> 1
        return (high, low)
    }

    /// `x` with its 64 bits in reverse order: adjacent bits, pairs and nibbles swap,
    /// then the bytes.
    @inline(__always)
    static func reversed(_ x: UInt64) -> UInt64 {
        var value = ((x &>> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) &<< 1)
        value = ((value &>> 2) & 0x3333_3333_3333_3333) | ((value & 0x3333_3333_3333_3333) &<< 2)
        value = ((value &>> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((value & 0x0F0F_0F0F_0F0F_0F0F) &<< 4)
        return value.byteSwapped
    }
}
