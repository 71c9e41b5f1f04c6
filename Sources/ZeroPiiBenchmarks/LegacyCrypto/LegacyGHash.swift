/// GHASH, the universal hash of GCM (NIST SP 800-38D, section 6.4), in constant time.
///
/// Multiplication in GF(2^128) needs carry-less products, which portable code cannot
/// ask the CPU for. They are built from ordinary integer multiplications instead:
/// each 64-bit operand is split into five "combs" holding every fifth bit, so that
/// the integer product of two combs has at most 13 bits meeting in any position and
/// the carries (at most 3 bits long) never reach the next bit of the same comb.
/// Masking each product back to its comb leaves exactly the carry-less product.
/// Using full-width (128-bit) products gives both halves at once. The 128-bit
/// multiplication uses Karatsuba (three 64-bit products), and the reduction
/// works in GCM's bit-reflected order, as in BearSSL's `ghash_ctmul64`.
///
/// There are no branches and no memory accesses that depend on the hash key or
/// the data.
struct LegacyGHash {
    /// The hash key H, pre-split into combs for each Karatsuba operand.
    private let keyLow: Combs
    private let keyHigh: Combs
    private let keySum: Combs

    /// The running value Y, as two big-endian halves: `high` is bytes 0..<8.
    private var accumulatorHigh: UInt64 = 0
    private var accumulatorLow: UInt64 = 0

    /// Creates a GHASH over the 16-byte hash key `key`.
    init(key: UnsafeRawPointer) {
        let high = UInt64(bigEndian: key.loadUnaligned(as: UInt64.self))
        let low = UInt64(bigEndian: key.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        keyHigh = Combs(high)
        keyLow = Combs(low)
        keySum = Combs(high ^ low)
    }

    /// Absorbs `count` bytes, zero-padding a final partial block (as GCM pads both the
    /// associated data and the ciphertext).
    mutating func update(_ bytes: UnsafeRawPointer, count: Int) {
        var offset = 0
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
        let yHigh = accumulatorHigh ^ high
        let yLow = accumulatorLow ^ low

        let lowProduct = Self.carrylessMultiply(yLow, keyLow)
        let highProduct = Self.carrylessMultiply(yHigh, keyHigh)
        let sumProduct = Self.carrylessMultiply(yLow ^ yHigh, keySum)
        let middleLow = sumProduct.low ^ lowProduct.low ^ highProduct.low
        let middleHigh = sumProduct.high ^ lowProduct.high ^ highProduct.high

        // The 255-bit product of the bit-reflected operands, v3 (most significant) to v0.
        var v0 = lowProduct.low
        var v1 = lowProduct.high ^ middleLow
        var v2 = highProduct.low ^ middleHigh
        var v3 = highProduct.high

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

        accumulatorHigh = v3
        accumulatorLow = v2
    }

    /// A 64-bit operand split into five combs (bits whose index is 0, 1, 2, 3 or 4 mod 5).
    struct Combs {
        let c0, c1, c2, c3, c4: UInt64

        @inline(__always)
        init(_ value: UInt64) {
            c0 = value & LegacyGHash.comb0
            c1 = value & LegacyGHash.comb1
            c2 = value & LegacyGHash.comb2
            c3 = value & LegacyGHash.comb3
            c4 = value & LegacyGHash.comb4
        }
    }

    private static let comb0: UInt64 = 0x1084_2108_4210_8421
    private static let comb1: UInt64 = 0x2108_4210_8421_0842
    private static let comb2: UInt64 = 0x4210_8421_0842_1084
    private static let comb3: UInt64 = 0x8421_0842_1084_2108
    private static let comb4: UInt64 = 0x0842_1084_2108_4210

    /// The 128-bit carry-less product of `x` and the operand split in `y`.
    @inline(__always)
    static func carrylessMultiply(_ x: UInt64, _ y: Combs) -> (high: UInt64, low: UInt64) {
        let x0 = x & comb0, x1 = x & comb1, x2 = x & comb2, x3 = x & comb3, x4 = x & comb4

        @inline(__always) func product(_ a: UInt64, _ b: UInt64) -> (high: UInt64, low: UInt64) {
            let full = a.multipliedFullWidth(by: b)
            return (full.high, full.low)
        }
        @inline(__always) func sum(
            _ a: (high: UInt64, low: UInt64), _ b: (high: UInt64, low: UInt64), _ c: (high: UInt64, low: UInt64),
            _ d: (high: UInt64, low: UInt64), _ e: (high: UInt64, low: UInt64)
        ) -> (high: UInt64, low: UInt64) {
            (a.high ^ b.high ^ c.high ^ d.high ^ e.high, a.low ^ b.low ^ c.low ^ d.low ^ e.low)
        }

        // Comb k of the result collects the products whose comb indices add up to k mod 5.
        let r0 = sum(product(x0, y.c0), product(x1, y.c4), product(x2, y.c3), product(x3, y.c2), product(x4, y.c1))
        let r1 = sum(product(x0, y.c1), product(x1, y.c0), product(x2, y.c4), product(x3, y.c3), product(x4, y.c2))
        let r2 = sum(product(x0, y.c2), product(x1, y.c1), product(x2, y.c0), product(x3, y.c4), product(x4, y.c3))
        let r3 = sum(product(x0, y.c3), product(x1, y.c2), product(x2, y.c1), product(x3, y.c0), product(x4, y.c4))
        let r4 = sum(product(x0, y.c4), product(x1, y.c3), product(x2, y.c2), product(x3, y.c1), product(x4, y.c0))

        let low = (r0.low & comb0) | (r1.low & comb1) | (r2.low & comb2) | (r3.low & comb3) | (r4.low & comb4)
        // Bit 64 + i of the product has index i + 4 mod 5, so the high half's combs shift by one.
        let high = (r0.high & comb1) | (r1.high & comb2) | (r2.high & comb3) | (r3.high & comb4) | (r4.high & comb0)
        return (high, low)
    }
}
