/// The SHA-256 compression function, on raw blocks.
///
/// Kept apart from ``LegacySHA256`` so the hot loop is plain, non-generic code over
/// unsafe pointers with wrapping arithmetic: no allocation, no bounds checks and no
/// overflow traps per block.
enum LegacySHA256Compression {
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    static let initialState: State = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )

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

    /// Compresses `blockCount` consecutive 64-byte blocks starting at `blocks` into `state`.
    static func compress(_ state: inout State, blocks: UnsafeRawPointer, blockCount: Int) {
        roundConstants.withUnsafeBufferPointer { constants in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                var block = blocks
                for _ in 0..<blockCount {
                    compressBlock(&state, block: block, constants: constants.baseAddress!, schedule: schedule.baseAddress!)
                    block += 64
                }
            }
        }
    }

    @inline(__always)
    private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value &>> count) | (value &<< (32 &- count))
    }

    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
        _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
        _ constantPlusWord: UInt32
    ) {
        let sigmaE = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
        let choose = g ^ (e & (f ^ g))
        let temporary1 = h &+ sigmaE &+ choose &+ constantPlusWord
        let sigmaA = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
        let majority = ((a ^ b) & (b ^ c)) ^ b
        d &+= temporary1
        h = temporary1 &+ sigmaA &+ majority
    }

    @inline(__always)
    private static func compressBlock(
        _ state: inout State,
        block: UnsafeRawPointer,
        constants: UnsafePointer<UInt32>,
        schedule w: UnsafeMutablePointer<UInt32>
    ) {
        for index in 0..<16 {
            w[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
        }
        var (a, b, c, d, e, f, g, h) = state
        // Eight rounds per iteration with the variables renamed instead of shifted,
        // so no register moves are spent on rotating the working state.
        var index = 0
        while index < 64 {
            // Expanding the schedule eight words ahead, between the rounds, lets the CPU
            // fill the rounds' long dependency chains with this independent work.
            if index < 48 {
                for next in (index &+ 16)..<(index &+ 24) {
                    let early = w[next &- 15]
                    let late = w[next &- 2]
                    let sigma0 = rotateRight(early, 7) ^ rotateRight(early, 18) ^ (early &>> 3)
                    let sigma1 = rotateRight(late, 17) ^ rotateRight(late, 19) ^ (late &>> 10)
                    w[next] = w[next &- 16] &+ sigma0 &+ w[next &- 7] &+ sigma1
                }
            }
            round(a, b, c, &d, e, f, g, &h, constants[index] &+ w[index])
            round(h, a, b, &c, d, e, f, &g, constants[index &+ 1] &+ w[index &+ 1])
            round(g, h, a, &b, c, d, e, &f, constants[index &+ 2] &+ w[index &+ 2])
            round(f, g, h, &a, b, c, d, &e, constants[index &+ 3] &+ w[index &+ 3])
            round(e, f, g, &h, a, b, c, &d, constants[index &+ 4] &+ w[index &+ 4])
            round(d, e, f, &g, h, a, b, &c, constants[index &+ 5] &+ w[index &+ 5])
            round(c, d, e, &f, g, h, a, &b, constants[index &+ 6] &+ w[index &+ 6])
            round(b, c, d, &e, f, g, h, &a, constants[index &+ 7] &+ w[index &+ 7])
            index &+= 8
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
            state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
        )
    }
}
