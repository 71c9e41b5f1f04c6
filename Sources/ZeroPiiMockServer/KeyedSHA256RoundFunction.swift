import ZeroPiiCrypto

/// The round function the vault uses: SHA-256 keyed through its chaining value.
///
/// The key fills the first block, whose compressed state is kept, and each call hashes
/// one message and a 32-bit block counter on from there, eight words per block. That is
/// the inner half of HMAC, the keyed compression function whose pseudorandomness HMAC's
/// own proof rests on, at one compression per block instead of two: the vault's hot
/// loop. The cipher's messages of one format and round all have the same length, and
/// those of different formats differ in their length-prefixed header, so no message is
/// a prefix of another.
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
    func tweak(for format: [UInt8]) -> [UInt8] {
        var message: [UInt8] = [0xFF]
        Self.append(UInt32(format.count), to: &message)
        message.append(contentsOf: format)
        return Array(hash(message, counter: 0).prefix(16))
    }

    /// Hashes the round number, the tweak and the source symbols (4 bytes each), then a
    /// block counter: every message of one format and round has the same length.
    ///
    /// The message is built on the stack and each digest is read in place: this runs
    /// 8 to 32 times per value, and the arrays it used to allocate for the message and
    /// each digest cost as much as a third of its hashing.
    func words(round: Int, tweak: [UInt8], source: ArraySlice<Int>, count: Int, into words: inout [UInt32]) {
        words.removeAll(keepingCapacity: true)
        let messageCount = 1 + tweak.count + 4 * source.count
        withUnsafeTemporaryAllocation(byteCount: messageCount + 4, alignment: 4) { message in
            message[0] = UInt8(truncatingIfNeeded: round)
            var offset = 1
            for byte in tweak {
                message[offset] = byte
                offset += 1
            }
            for symbol in source {
                message.storeBytes(of: UInt32(truncatingIfNeeded: symbol).bigEndian, toByteOffset: offset, as: UInt32.self)
                offset += 4
            }
            var counter: UInt32 = 0
            while words.count < count {
                message.storeBytes(of: counter.bigEndian, toByteOffset: messageCount, as: UInt32.self)
                var hash = keyedState
                hash.update(bufferPointer: UnsafeRawBufferPointer(message))
                hash.finalize().withUnsafeBytes { code in
                    var index = 0
                    while index + 3 < code.count && words.count < count {
                        words.append(UInt32(bigEndian: code.loadUnaligned(fromByteOffset: index, as: UInt32.self)))
                        index += 4
                    }
                }
                counter += 1
            }
        }
    }

    private func hash(_ message: [UInt8], counter: UInt32) -> [UInt8] {
        var hash = keyedState
        message.withUnsafeBytes { hash.update(bufferPointer: $0) }
        withUnsafeBytes(of: counter.bigEndian) { hash.update(bufferPointer: $0) }
        return hash.finalize().withUnsafeBytes { Array($0) }
    }

    private static func append(_ word: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: word >> 24))
        bytes.append(UInt8(truncatingIfNeeded: word >> 16))
        bytes.append(UInt8(truncatingIfNeeded: word >> 8))
        bytes.append(UInt8(truncatingIfNeeded: word))
    }
}
