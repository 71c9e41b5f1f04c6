/// The counter blocks of counter mode, four at a time, handed to the cipher already
/// in bitsliced form.
///
/// Transposing four blocks into bit planes costs about as much as a twentieth of the
/// batch's encryption, yet from one batch to the next only the last byte of each
/// block changes, and only in bits 2 to 7 when the first counter of the batch is a
/// multiple of four (always, for 12-byte nonces: the message's first batch holds H,
/// J0 and counters 2 and 3, and every later one starts at a multiple of four). So the
/// planes of the four blocks are built once, with `k` as the last byte of slot `k`,
/// and each batch XORs the counter's bits 2 to 7 into the positions of the last byte,
/// the same bits in every slot. The planes are rebuilt when the counter's upper 24
/// bits change, once every 64 batches. Counter blocks are public (nonce and position),
/// so none of this touches secrets, and its one branch is on the public counter.
struct CounterBatchInput {
    private let prefix: (UInt32, UInt32, UInt32)
    /// The four blocks `prefix ‖ (upper << 8 | k)` for slot `k`, in bitsliced form.
    private var planes = BitslicedState()
    /// The counter's upper 24 bits that `planes` were built for.
    private var upper: UInt32?

    /// In a bitsliced state, the four bits of the last byte of each block (row 3,
    /// column 3; bit `16 * row + 4 * column + block` of each plane).
    private static let lastByteBits: UInt64 = 0xF000_0000_0000_0000

    init(prefix: (UInt32, UInt32, UInt32)) {
        self.prefix = prefix
    }

    /// Encrypts the counter blocks `prefix ‖ counter`, …, `prefix ‖ counter + 3`
    /// (each counter wrapping mod 2^32) into `words`, block `k` in words `4k ..< 4k + 4`.
    @inline(__always)
    mutating func encryptBatch(counter: UInt32, with cipher: BitslicedAES, into words: UnsafeMutablePointer<UInt32>) {
        guard counter & 3 == 0 else {
            // A batch that may carry out of the last byte: built and transposed whole.
            Self.writeCounterBlocks(into: words, prefix: prefix, first: counter)
            cipher.encryptBatch(words)
            return
        }
        if upper != counter &>> 8 { rebuild(upper: counter &>> 8, scratch: words) }
        var state = planes
        let low = UInt64(counter & 0xFC)
        @inline(__always) func lastBytes(_ bit: UInt64) -> UInt64 { (0 &- ((low &>> bit) & 1)) & Self.lastByteBits }
        state.q2 ^= lastBytes(2)
        state.q3 ^= lastBytes(3)
        state.q4 ^= lastBytes(4)
        state.q5 ^= lastBytes(5)
        state.q6 ^= lastBytes(6)
        state.q7 ^= lastBytes(7)
        cipher.encrypt(&state)
        state.store(words: words)
    }

    private mutating func rebuild(upper: UInt32, scratch words: UnsafeMutablePointer<UInt32>) {
        // Slot k's last byte is k: the first counter's last byte is zero, and k < 4 carries nothing.
        Self.writeCounterBlocks(into: words, prefix: prefix, first: upper &<< 8)
        planes = BitslicedState(words: UnsafePointer(words))
        self.upper = upper
    }

    /// Writes one batch of counter blocks, `prefix ‖ first`, …, `prefix ‖ first + 3` (each
    /// counter wrapping mod 2^32), as 32-bit words: the nonce words, then the counter
    /// stored big-endian (the cipher reads every word little-endian).
    @inline(__always)
    static func writeCounterBlocks(into words: UnsafeMutablePointer<UInt32>, prefix: (UInt32, UInt32, UInt32), first: UInt32) {
        for slot in 0..<BitslicedState.blockCount {
            let block = words + 4 &* slot
            block[0] = prefix.0
            block[1] = prefix.1
            block[2] = prefix.2
            block[3] = UInt32(littleEndian: (first &+ UInt32(truncatingIfNeeded: slot)).bigEndian)
        }
    }
}
