import ZeroPiiCrypto

/// The round function of vault format 3: SipHash-2-4-128 under a key per format.
///
/// A format's tweak is SipHash-2-4-128 of the format under the vault's 16-byte round key,
/// and is itself the key of that format's rounds, so rounds of different formats run
/// under independent keys. A round's words come four at a time, from SipHash-2-4-128
/// under the format's key of the message: the round number (8 bytes), the source
/// symbols (4 bytes each, zero-padded to a multiple of 8) and a 4-byte block counter,
/// all little-endian. Every message of one format and round has the same length.
///
/// Format 2's keyed SHA-256 (``KeyedSHA256RoundFunction``) cost 2 to 4 SHA-256
/// compressions per round for a typical email address; this costs about 40 SipHash
/// rounds, a small fraction of that, which is what lets `zeropii tokenize` keep pace
/// with a spreadsheet of a million rows. The messages' prefix (round and source) is
/// absorbed once per round and each group of four words finishes a copy of that state.
struct SipHashRoundFunction: FeistelRoundFunction {
    private let key0: UInt64
    private let key1: UInt64

    /// A round function keyed with the first 16 bytes of `key`.
    init(key: SymmetricKey) {
        (key0, key1) = key.withUnsafeBytes { bytes in
            precondition(bytes.count >= 16, "the format 3 round function takes a 16-byte key")
            return (
                UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)),
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
    }

    func tweak(for format: [UInt8]) -> FormatTweak {
        var state = SipHash(key0: key0, key1: key1, width: .bits128)
        let (first, second) = format.withUnsafeBytes { bytes in
            let (tail, tailCount) = state.absorbWords(of: bytes)
            return state.finalize128(tail: tail, tailCount: tailCount)
        }
        return FormatTweak(high: first, low: second)
    }

    func words(round: Int, tweak: FormatTweak, source: UnsafeBufferPointer<Int>, into words: UnsafeMutableBufferPointer<UInt32>) {
        var state = SipHash(key0: tweak.high, key1: tweak.low, width: .bits128)
        state.absorb(word: UInt64(truncatingIfNeeded: round))
        var index = 0
        while index &+ 1 < source.count {
            state.absorb(
                word: UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: source[index])) | UInt64(
                    truncatingIfNeeded: UInt32(truncatingIfNeeded: source[index &+ 1])) &<< 32)
            index &+= 2
        }
        if index < source.count { state.absorb(word: UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: source[index]))) }
        var counter: UInt64 = 0
        var filled = 0
        while filled < words.count {
            let (first, second) = state.finalize128(tail: counter, tailCount: 4)
            let block = (
                UInt32(truncatingIfNeeded: first), UInt32(truncatingIfNeeded: first &>> 32), UInt32(truncatingIfNeeded: second),
                UInt32(truncatingIfNeeded: second &>> 32)
            )
            words[filled] = block.0
            if filled &+ 1 < words.count { words[filled &+ 1] = block.1 }
            if filled &+ 2 < words.count { words[filled &+ 2] = block.2 }
            if filled &+ 3 < words.count { words[filled &+ 3] = block.3 }
            filled &+= 4
            counter &+= 1
        }
    }
}
