/// The SHA-256 compression function, on raw blocks.
///
/// Kept apart from ``SHA256`` so the hot loop is plain, non-generic code over
/// unsafe pointers with wrapping arithmetic: no allocation, no bounds checks and no
/// overflow traps per block. The round constants are read by round number only.
enum SHA256Compression {
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    static let initialState: State = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )

    /// Compresses `blockCount` consecutive 64-byte blocks starting at `blocks` into `state`.
    static func compress(_ state: inout State, blocks: UnsafeRawPointer, blockCount: Int) {
        roundConstants.withUnsafeBufferPointer { constants in
            var block = blocks
            for _ in 0..<blockCount {
                compressBlock(&state, block: block, constants: constants.baseAddress!)
                block += 64
            }
        }
    }

    @inline(__always)
    private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value &>> count) | (value &<< (32 &- count))
    }

    /// One round: `d += T1`, `h = T1 + T2`, the other six words renamed by the caller.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
        _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
        _ constant: UInt32, _ word: UInt32
    ) {
        // Σ1(e) = ROTR6(e ⊕ ROTR5(e ⊕ ROTR14(e))), the same as ROTR6 ⊕ ROTR11 ⊕ ROTR25
        // but with one copy of `e` instead of three: x86-64 without BMI2 rotates in place.
        let sigmaE = rotateRight(rotateRight(rotateRight(e, 14) ^ e, 5) ^ e, 6)
        let choose = g ^ (e & (f ^ g))
        let temporary1 = h &+ sigmaE &+ choose &+ constant &+ word
        // Σ0(a) = ROTR2(a ⊕ ROTR11(a ⊕ ROTR9(a))) = ROTR2 ⊕ ROTR13 ⊕ ROTR22, likewise.
        let sigmaA = rotateRight(rotateRight(rotateRight(a, 9) ^ a, 11) ^ a, 2)
        let majority = ((a ^ b) & (b ^ c)) ^ b
        d &+= temporary1
        h = temporary1 &+ sigmaA &+ majority
    }

    /// One word of the message schedule, in place: `w[i] += σ0(w[i+1]) + w[i+9] + σ1(w[i+14])`
    /// with indices mod 16, which turns the sixteen words of the window from `W[t-16...t-1]`
    /// into `W[t...t+15]` one at a time.
    @inline(__always)
    private static func expand(_ w: inout UInt32, _ next: UInt32, _ ninth: UInt32, _ fourteenth: UInt32) {
        // σ0 and σ1 with their two rotations nested, as in the rounds.
        let sigma0 = rotateRight(rotateRight(next, 11) ^ next, 7) ^ (next &>> 3)
        let sigma1 = rotateRight(rotateRight(fourteenth, 2) ^ fourteenth, 17) ^ (fourteenth &>> 10)
        w = w &+ sigma0 &+ ninth &+ sigma1
    }

    /// One block. The message schedule lives in sixteen local words, a window over
    /// `W[t-16...t-1]` updated in place, rather than a 64-word array: no memory for it,
    /// no bounds or loop tests, and the compiler keeps most of it in registers. The
    /// rounds go sixteen at a time with the working variables renamed rather than
    /// shifted; `expanding` is a literal at each call, so both forms are straight code.
    @inline(__always)
    private static func compressBlock(_ state: inout State, block: UnsafeRawPointer, constants: UnsafePointer<UInt32>) {
        @inline(__always) func load(_ i: Int) -> UInt32 { UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self)) }
        var w0 = load(0), w1 = load(1), w2 = load(2), w3 = load(3), w4 = load(4), w5 = load(5), w6 = load(6), w7 = load(7)
        var w8 = load(8), w9 = load(9), w10 = load(10), w11 = load(11), w12 = load(12), w13 = load(13), w14 = load(14), w15 = load(15)
        var (a, b, c, d, e, f, g, h) = state

        @inline(__always) func sixteen(_ k: UnsafePointer<UInt32>, expanding: Bool) {
            if expanding { expand(&w0, w1, w9, w14) }
            round(a, b, c, &d, e, f, g, &h, k[0], w0)
            if expanding { expand(&w1, w2, w10, w15) }
            round(h, a, b, &c, d, e, f, &g, k[1], w1)
            if expanding { expand(&w2, w3, w11, w0) }
            round(g, h, a, &b, c, d, e, &f, k[2], w2)
            if expanding { expand(&w3, w4, w12, w1) }
            round(f, g, h, &a, b, c, d, &e, k[3], w3)
            if expanding { expand(&w4, w5, w13, w2) }
            round(e, f, g, &h, a, b, c, &d, k[4], w4)
            if expanding { expand(&w5, w6, w14, w3) }
            round(d, e, f, &g, h, a, b, &c, k[5], w5)
            if expanding { expand(&w6, w7, w15, w4) }
            round(c, d, e, &f, g, h, a, &b, k[6], w6)
            if expanding { expand(&w7, w8, w0, w5) }
            round(b, c, d, &e, f, g, h, &a, k[7], w7)
            if expanding { expand(&w8, w9, w1, w6) }
            round(a, b, c, &d, e, f, g, &h, k[8], w8)
            if expanding { expand(&w9, w10, w2, w7) }
            round(h, a, b, &c, d, e, f, &g, k[9], w9)
            if expanding { expand(&w10, w11, w3, w8) }
            round(g, h, a, &b, c, d, e, &f, k[10], w10)
            if expanding { expand(&w11, w12, w4, w9) }
            round(f, g, h, &a, b, c, d, &e, k[11], w11)
            if expanding { expand(&w12, w13, w5, w10) }
            round(e, f, g, &h, a, b, c, &d, k[12], w12)
            if expanding { expand(&w13, w14, w6, w11) }
            round(d, e, f, &g, h, a, b, &c, k[13], w13)
            if expanding { expand(&w14, w15, w7, w12) }
            round(c, d, e, &f, g, h, a, &b, k[14], w14)
            if expanding { expand(&w15, w0, w8, w13) }
            round(b, c, d, &e, f, g, h, &a, k[15], w15)
        }

        sixteen(constants, expanding: false)
        sixteen(constants + 16, expanding: true)
        sixteen(constants + 32, expanding: true)
        sixteen(constants + 48, expanding: true)
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}
