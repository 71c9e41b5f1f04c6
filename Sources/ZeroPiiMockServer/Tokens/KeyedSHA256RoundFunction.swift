import ZeroPiiCrypto

/// The round function of vault format 2: SHA-256 keyed through its chaining value.
///
/// The key fills the first block, whose compressed state is kept, and each call hashes
/// one message and a 32-bit block counter on from there, eight words per block. That is
/// the inner half of HMAC, the keyed compression function whose pseudorandomness HMAC's
/// own proof rests on, at one compression per block instead of two. The cipher's
/// messages of one format and round all have the same length, and those of different
/// formats differ in their length-prefixed header, so no message is a prefix of another.
///
/// Vaults of format 3 use ``SipHashRoundFunction``; this one stays, unchanged, for the
/// vaults written with it, whose tokens must not move.
struct KeyedSHA256RoundFunction: FeistelRoundFunction {
    private let keyedState: SHA256

    init(key: SymmetricKey) {
        var state = SHA256()
        var block = [UInt8](repeating: 0, count: SHA256.blockByteCount)
        key.withUnsafeBytes { keyBytes in
            for index in 0..<min(keyBytes.count, block.count) { block[index] = keyBytes[index] }
        }
        block.withUnsafeBytes { state.update(bufferPointer: $0) }
        keyedState = state
    }

    /// The format's tweak: the first 16 bytes of the hash of 0xFF and the length-prefixed
    /// format. A round's message starts with its number instead, so the two never meet.
    func tweak(for format: [UInt8]) -> FormatTweak {
        var hash = keyedState
        var header: (UInt8, UInt32) = (0xFF, UInt32(format.count).bigEndian)
        withUnsafeBytes(of: &header.0) { hash.update(bufferPointer: $0) }
        withUnsafeBytes(of: &header.1) { hash.update(bufferPointer: $0) }
        format.withUnsafeBytes { hash.update(bufferPointer: $0) }
        withUnsafeBytes(of: UInt32(0)) { hash.update(bufferPointer: $0) }
        return hash.finalize().withUnsafeBytes { digest in
            FormatTweak(
                high: UInt64(bigEndian: digest.loadUnaligned(as: UInt64.self)),
                low: UInt64(bigEndian: digest.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }

    /// Hashes the round number, the tweak and the source symbols (4 bytes each), then a
    /// block counter: every message of one format and round has the same length.
    ///
    /// The message is built on the stack and each digest is read in place: this runs
    /// 8 to 32 times per value.
    func words(round: Int, tweak: FormatTweak, source: UnsafeBufferPointer<Int>, into words: UnsafeMutableBufferPointer<UInt32>) {
        let messageCount = 1 + 16 + 4 * source.count
        withUnsafeTemporaryAllocation(byteCount: messageCount + 4, alignment: 8) { message in
            message[0] = UInt8(truncatingIfNeeded: round)
            message.storeBytes(of: tweak.high.bigEndian, toByteOffset: 1, as: UInt64.self)
            message.storeBytes(of: tweak.low.bigEndian, toByteOffset: 9, as: UInt64.self)
            var offset = 17
            for symbol in source {
                message.storeBytes(of: UInt32(truncatingIfNeeded: symbol).bigEndian, toByteOffset: offset, as: UInt32.self)
                offset &+= 4
            }
            var counter: UInt32 = 0
            var filled = 0
            while filled < words.count {
                message.storeBytes(of: counter.bigEndian, toByteOffset: messageCount, as: UInt32.self)
                var hash = keyedState
                hash.update(bufferPointer: UnsafeRawBufferPointer(message))
                hash.finalize().withUnsafeBytes { code in
                    var index = 0
                    while index &+ 3 < code.count && filled < words.count {
                        words[filled] = UInt32(bigEndian: code.loadUnaligned(fromByteOffset: index, as: UInt32.self))
                        filled &+= 1
                        index &+= 4
                    }
                }
                counter &+= 1
            }
        }
    }
}
