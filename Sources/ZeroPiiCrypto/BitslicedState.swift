/// Four AES blocks in bitsliced form: word `qN` holds bit `N` of every byte of all
/// four blocks.
///
/// Within each 64-bit word, bit `16 * row + 4 * column + block` belongs to the state
/// byte at (`row`, `column`) of block `block`. In this layout every AES step is a
/// fixed sequence of AND, XOR, shift and rotate instructions on eight words, with no
/// table and no branch, so the running time cannot depend on the key or the data.
/// The layout follows the `aes_ct64` design of Thomas Pornin's BearSSL. (Two-lane
/// SIMD words holding eight blocks were measured too: no faster on x86-64, where
/// SSE2 has no 64-bit rotate.)
struct BitslicedState {
    /// Blocks per state.
    static let blockCount = 4

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

    /// Applies the same word-wise transformation to all eight bit planes.
    @inline(__always)
    private mutating func transformEachWord(_ transform: (UInt64) -> UInt64) {
        q0 = transform(q0)
        q1 = transform(q1)
        q2 = transform(q2)
        q3 = transform(q3)
        q4 = transform(q4)
        q5 = transform(q5)
        q6 = transform(q6)
        q7 = transform(q7)
    }

    /// ShiftRows applied twice: rows 0 and 2 stay, rows 1 and 3 swap their byte pairs.
    /// Used in the last round only; the rounds in between never shift rows (see
    /// ``BitslicedAES``), and the round keys are shifted on their bytes.
    @inline(__always)
    mutating func shiftRowsTwice() {
        @inline(__always) func shift(_ x: UInt64) -> UInt64 {
            (x & 0x0000_FFFF_0000_FFFF) | ((x &>> 8) & 0x00FF_0000_00FF_0000) | ((x & 0x00FF_0000_00FF_0000) &<< 8)
        }
        transformEachWord(shift)
    }

    /// MixColumns as seen by a state that has skipped ShiftRows `j` times (mod 4):
    /// `P^-j ∘ MixColumns ∘ P^j`, with P the ShiftRows permutation. Each output byte
    /// at (row i, column c) is `2·x(i, c) ⊕ 3·x(i+1, c+j) ⊕ x(i+2, c+2j) ⊕ x(i+3, c+3j)`.
    ///
    /// `oneRowOn` moves (i+1, c+j) to (i, c) and `twoRowsOn` moves (i+2, c+2j) to (i, c).
    /// With `r = oneRowOn(x)` and `s = x ⊕ r`, the output is `2·s ⊕ r ⊕ twoRowsOn(s)`;
    /// doubling in GF(2^8) is a shift of the bit planes with the top plane folded back in
    /// by the polynomial x^8 + x^4 + x^3 + x + 1.
    @inline(__always)
    private mutating func mixColumns(oneRowOn: (UInt64) -> UInt64, twoRowsOn: (UInt64) -> UInt64) {
        let r0 = oneRowOn(q0), r1 = oneRowOn(q1), r2 = oneRowOn(q2), r3 = oneRowOn(q3)
        let r4 = oneRowOn(q4), r5 = oneRowOn(q5), r6 = oneRowOn(q6), r7 = oneRowOn(q7)
        let s0 = q0 ^ r0, s1 = q1 ^ r1, s2 = q2 ^ r2, s3 = q3 ^ r3
        let s4 = q4 ^ r4, s5 = q5 ^ r5, s6 = q6 ^ r6, s7 = q7 ^ r7
        q0 = s7 ^ r0 ^ twoRowsOn(s0)
        q1 = s0 ^ s7 ^ r1 ^ twoRowsOn(s1)
        q2 = s1 ^ r2 ^ twoRowsOn(s2)
        q3 = s2 ^ s7 ^ r3 ^ twoRowsOn(s3)
        q4 = s3 ^ s7 ^ r4 ^ twoRowsOn(s4)
        q5 = s4 ^ r5 ^ twoRowsOn(s5)
        q6 = s5 ^ r6 ^ twoRowsOn(s6)
        q7 = s6 ^ r7 ^ twoRowsOn(s7)
    }

    @inline(__always)
    private static func rotateRight(_ x: UInt64, _ distance: UInt64) -> UInt64 {
        (x &>> distance) | (x &<< (64 &- distance))
    }

    /// Moves (i+2, c+2) to (i, c): the second-row term for `j` = 1 and 3.
    @inline(__always)
    private static func twoRowsTwoColumnsOn(_ x: UInt64) -> UInt64 {
        (rotateRight(x, 40) & 0x00FF_00FF_00FF_00FF) | (rotateRight(x, 24) & 0xFF00_FF00_FF00_FF00)
    }

    /// MixColumns of an unshifted state (`j` = 0): whole-row rotations only.
    @inline(__always)
    mutating func mixColumns0() {
        mixColumns(oneRowOn: { Self.rotateRight($0, 16) }, twoRowsOn: { Self.rotateRight($0, 32) })
    }

    /// MixColumns of a state one ShiftRows behind.
    @inline(__always)
    mutating func mixColumns1() {
        mixColumns(
            oneRowOn: { (Self.rotateRight($0, 20) & 0x0FFF_0FFF_0FFF_0FFF) | (Self.rotateRight($0, 4) & 0xF000_F000_F000_F000) },
            twoRowsOn: Self.twoRowsTwoColumnsOn
        )
    }

    /// MixColumns of a state two ShiftRows behind.
    @inline(__always)
    mutating func mixColumns2() {
        mixColumns(
            oneRowOn: { (Self.rotateRight($0, 24) & 0x00FF_00FF_00FF_00FF) | (Self.rotateRight($0, 8) & 0xFF00_FF00_FF00_FF00) },
            twoRowsOn: { Self.rotateRight($0, 32) }
        )
    }

    /// MixColumns of a state three ShiftRows behind.
    @inline(__always)
    mutating func mixColumns3() {
        mixColumns(
            oneRowOn: { (Self.rotateRight($0, 28) & 0x000F_000F_000F_000F) | (Self.rotateRight($0, 12) & 0xFFF0_FFF0_FFF0_FFF0) },
            twoRowsOn: Self.twoRowsTwoColumnsOn
        )
    }
}
