/// Four AES blocks in bitsliced form: word `qN` holds bit `N` of every byte of all
/// four blocks.
///
/// Within each word, bit `16 * row + 4 * column + block` belongs to the state byte
/// at (`row`, `column`) of block `block`. In this layout every AES step is a fixed
/// sequence of AND, XOR, shift and rotate instructions on eight words, with no
/// table and no branch, so the running time cannot depend on the key or the data.
/// The design follows the `aes_ct64` approach of Thomas Pornin's BearSSL.
struct BitslicedState {
    var q0: UInt64 = 0
    var q1: UInt64 = 0
    var q2: UInt64 = 0
    var q3: UInt64 = 0
    var q4: UInt64 = 0
    var q5: UInt64 = 0
    var q6: UInt64 = 0
    var q7: UInt64 = 0

    /// Loads four blocks given as sixteen little-endian 32-bit words (block `i` is
    /// words `4i ..< 4i + 4`) and transposes them into bitsliced form.
    @inline(__always)
    init(words w: UnsafePointer<UInt32>) {
        (q0, q4) = Self.interleave(w[0], w[1], w[2], w[3])
        (q1, q5) = Self.interleave(w[4], w[5], w[6], w[7])
        (q2, q6) = Self.interleave(w[8], w[9], w[10], w[11])
        (q3, q7) = Self.interleave(w[12], w[13], w[14], w[15])
        transpose()
    }

    init() {}

    /// Transposes back and stores the four blocks as sixteen little-endian words.
    @inline(__always)
    func store(words w: UnsafeMutablePointer<UInt32>) {
        var copy = self
        copy.transpose()
        (w[0], w[1], w[2], w[3]) = Self.deinterleave(copy.q0, copy.q4)
        (w[4], w[5], w[6], w[7]) = Self.deinterleave(copy.q1, copy.q5)
        (w[8], w[9], w[10], w[11]) = Self.deinterleave(copy.q2, copy.q6)
        (w[12], w[13], w[14], w[15]) = Self.deinterleave(copy.q3, copy.q7)
    }

    /// Spreads the 16 bytes of one block over two words: even-indexed bytes of each
    /// 32-bit word go to the first, odd-indexed to the second, 16 bits apart.
    @inline(__always)
    static func interleave(_ w0: UInt32, _ w1: UInt32, _ w2: UInt32, _ w3: UInt32) -> (UInt64, UInt64) {
        @inline(__always) func spread(_ word: UInt32) -> UInt64 {
            var x = UInt64(word)
            x = (x | (x &<< 16)) & 0x0000_FFFF_0000_FFFF
            x = (x | (x &<< 8)) & 0x00FF_00FF_00FF_00FF
            return x
        }
        return (spread(w0) | (spread(w2) &<< 8), spread(w1) | (spread(w3) &<< 8))
    }

    /// The inverse of ``interleave(_:_:_:_:)``.
    @inline(__always)
    static func deinterleave(_ even: UInt64, _ odd: UInt64) -> (UInt32, UInt32, UInt32, UInt32) {
        @inline(__always) func gather(_ spread: UInt64) -> UInt32 {
            var x = spread & 0x00FF_00FF_00FF_00FF
            x = (x | (x &>> 8)) & 0x0000_FFFF_0000_FFFF
            return UInt32(truncatingIfNeeded: x) | UInt32(truncatingIfNeeded: x &>> 16)
        }
        return (gather(even), gather(odd), gather(even &>> 8), gather(odd &>> 8))
    }

    /// Moves between "bytes side by side" and "bit planes": an 8×8 bit-matrix
    /// transpose across the eight words, done as three rounds of masked swaps. It is
    /// its own inverse.
    @inline(__always)
    mutating func transpose() {
        @inline(__always) func swap(_ low: inout UInt64, _ high: inout UInt64, _ mask: UInt64, _ shift: UInt64) {
            let a = low
            let b = high
            low = (a & mask) | ((b & mask) &<< shift)
            high = ((a &>> shift) & mask) | (b & ~mask)
        }
        swap(&q0, &q1, 0x5555_5555_5555_5555, 1)
        swap(&q2, &q3, 0x5555_5555_5555_5555, 1)
        swap(&q4, &q5, 0x5555_5555_5555_5555, 1)
        swap(&q6, &q7, 0x5555_5555_5555_5555, 1)
        swap(&q0, &q2, 0x3333_3333_3333_3333, 2)
        swap(&q1, &q3, 0x3333_3333_3333_3333, 2)
        swap(&q4, &q6, 0x3333_3333_3333_3333, 2)
        swap(&q5, &q7, 0x3333_3333_3333_3333, 2)
        swap(&q0, &q4, 0x0F0F_0F0F_0F0F_0F0F, 4)
        swap(&q1, &q5, 0x0F0F_0F0F_0F0F_0F0F, 4)
        swap(&q2, &q6, 0x0F0F_0F0F_0F0F_0F0F, 4)
        swap(&q3, &q7, 0x0F0F_0F0F_0F0F_0F0F, 4)
    }

    @inline(__always)
    mutating func addRoundKey(_ key: UnsafePointer<UInt64>) {
        q0 ^= key[0]
        q1 ^= key[1]
        q2 ^= key[2]
        q3 ^= key[3]
        q4 ^= key[4]
        q5 ^= key[5]
        q6 ^= key[6]
        q7 ^= key[7]
    }

    /// ShiftRows: row `r` of every block rotates left by `r` columns, which in this
    /// layout is a rotation of each 16-bit row group by `4 * r` bits.
    @inline(__always)
    mutating func shiftRows() {
        @inline(__always) func shift(_ x: UInt64) -> UInt64 {
            (x & 0x0000_0000_0000_FFFF)
                | ((x & 0x0000_0000_FFF0_0000) &>> 4) | ((x & 0x0000_0000_000F_0000) &<< 12)
                | ((x & 0x0000_FF00_0000_0000) &>> 8) | ((x & 0x0000_00FF_0000_0000) &<< 8)
                | ((x & 0xF000_0000_0000_0000) &>> 12) | ((x & 0x0FFF_0000_0000_0000) &<< 4)
        }
        q0 = shift(q0)
        q1 = shift(q1)
        q2 = shift(q2)
        q3 = shift(q3)
        q4 = shift(q4)
        q5 = shift(q5)
        q6 = shift(q6)
        q7 = shift(q7)
    }

    /// MixColumns. With `r` the state rotated by one row, each output row is
    /// `2·(a ⊕ r) ⊕ r ⊕ rot2(a ⊕ r)`; multiplying by 2 in GF(2^8) is a shift of the bit
    /// planes with the top plane `q7` folded back in by the polynomial x^8+x^4+x^3+x+1.
    @inline(__always)
    mutating func mixColumns() {
        @inline(__always) func nextRow(_ x: UInt64) -> UInt64 { (x &>> 16) | (x &<< 48) }
        @inline(__always) func rowsAcross(_ x: UInt64) -> UInt64 { (x &<< 32) | (x &>> 32) }
        let r0 = nextRow(q0), r1 = nextRow(q1), r2 = nextRow(q2), r3 = nextRow(q3)
        let r4 = nextRow(q4), r5 = nextRow(q5), r6 = nextRow(q6), r7 = nextRow(q7)
        let s0 = q0 ^ r0, s1 = q1 ^ r1, s2 = q2 ^ r2, s3 = q3 ^ r3
        let s4 = q4 ^ r4, s5 = q5 ^ r5, s6 = q6 ^ r6, s7 = q7 ^ r7
        q0 = s7 ^ r0 ^ rowsAcross(s0)
        q1 = s0 ^ s7 ^ r1 ^ rowsAcross(s1)
        q2 = s1 ^ r2 ^ rowsAcross(s2)
        q3 = s2 ^ s7 ^ r3 ^ rowsAcross(s3)
        q4 = s3 ^ s7 ^ r4 ^ rowsAcross(s4)
        q5 = s4 ^ r5 ^ rowsAcross(s5)
        q6 = s5 ^ r6 ^ rowsAcross(s6)
        q7 = s6 ^ r7 ^ rowsAcross(s7)
    }
}
