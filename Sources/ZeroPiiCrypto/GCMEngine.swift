/// AES-GCM (NIST SP 800-38D) on raw buffers: the counter mode, the tag, and the
/// checks on lengths. The public ``AES/GCM`` API and ``PayloadEnvelope`` wrap this.
///
/// For a 12-byte nonce the first bitsliced batch of four blocks encrypts the zero
/// block (the GHASH key H), J0 (the tag mask) and the first two counter blocks at
/// once, so a message of up to 32 bytes costs one batch in all, and 200 bytes four
/// rather than six. H, E(J0) and the keystream live in one scratch buffer per
/// message, on the stack, that is wiped when the message is done; the expanded key
/// is shared, so one engine can seal and open several messages, on several threads.
struct GCMEngine: Sendable {
    /// The largest plaintext GCM allows: 2^39 − 256 bits.
    static let maximumTextByteCount: UInt64 = (1 << 36) - 32
    /// GCM's limit on associated data and nonces: 2^64 − 1 bits.
    static let maximumBitLengthByteCount: UInt64 = (1 << 61) - 1
    static let tagByteCount = 16
    static let standardNonceByteCount = 12

    private let cipher: BitslicedAES

    /// - Throws: ``CryptoError/incorrectKeySize`` unless the key is 16, 24 or 32 bytes.
    init(key: UnsafeRawBufferPointer) throws {
        cipher = try BitslicedAES(key: key)
    }

    /// Encrypts `text` into `output` (same length) and writes the 16-byte tag.
    func seal(
        nonce: UnsafeRawBufferPointer,
        text: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer,
        output: UnsafeMutableRawPointer?,
        tag: UnsafeMutableRawPointer
    ) throws {
        try Self.checkLengths(nonce: nonce.count, text: text.count, associatedData: associatedData.count)
        KeystreamScratch.withScratch { scratch in
            var message = start(nonce: nonce, scratch: scratch)
            defer { message.ghash.wipe() }
            if let input = text.baseAddress, let output {
                applyKeystream(&message, scratch: scratch, input: input, output: output, count: text.count)
            }
            let ciphertext = UnsafeRawBufferPointer(start: output.map { UnsafeRawPointer($0) }, count: text.count)
            authenticationTag(&message.ghash, scratch: scratch, ciphertext: ciphertext, associatedData: associatedData, into: tag)
        }
    }

    /// Checks the tag and, only if it matches, decrypts `ciphertext` into `output`.
    /// - Throws: ``CryptoError/authenticationFailure`` before any plaintext is written.
    func open(
        nonce: UnsafeRawBufferPointer,
        ciphertext: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer,
        output: UnsafeMutableRawPointer?
    ) throws {
        try Self.checkLengths(nonce: nonce.count, text: ciphertext.count, associatedData: associatedData.count)
        guard tag.count == Self.tagByteCount else { throw CryptoError.authenticationFailure }
        try KeystreamScratch.withScratch { scratch in
            var message = start(nonce: nonce, scratch: scratch)
            defer { message.ghash.wipe() }
            var expectedTag: (UInt64, UInt64) = (0, 0)
            let matches = withUnsafeMutableBytes(of: &expectedTag) { expected -> Bool in
                authenticationTag(
                    &message.ghash, scratch: scratch, ciphertext: ciphertext, associatedData: associatedData,
                    into: expected.baseAddress!
                )
                return ConstantTime.equals(UnsafeRawBufferPointer(expected), tag)
            }
            Wipe.value(&expectedTag, .keystream)
            // Plaintext only after the tag matched. This is the one branch on the
            // verdict (Scripts/constant-time-check.sh allows it by this line).
            guard matches else { throw CryptoError.authenticationFailure }
            if let input = ciphertext.baseAddress, let output {
                applyKeystream(&message, scratch: scratch, input: input, output: output, count: ciphertext.count)
            }
        }
    }

    private static func checkLengths(nonce: Int, text: Int, associatedData: Int) throws {
        guard nonce > 0, UInt64(nonce) <= maximumBitLengthByteCount,
            UInt64(text) <= maximumTextByteCount,
            UInt64(associatedData) <= maximumBitLengthByteCount
        else { throw CryptoError.incorrectParameterSize }
    }

    /// A message under way: its GHASH (keyed with H), the first 96 bits of its counter
    /// blocks, the next counter to encrypt, and which slot of the scratch batch holds
    /// the next unused keystream block (4 when none is left).
    struct Message {
        var ghash: GHash
        let prefix: (UInt32, UInt32, UInt32)
        var nextCounter: UInt32
        var readySlot: Int
    }

    /// Computes H, E(J0) (into `scratch.tagMask`) and as many keystream blocks as fit
    /// in the same batch. For a 12-byte nonce that is one batch holding
    /// [0, J0, inc32(J0), inc32²(J0)]; any other nonce length needs H before J0 (its
    /// GHASH), so H takes a batch of its own and the second holds [J0, …, inc32³(J0)].
    func start(nonce: UnsafeRawBufferPointer, scratch: KeystreamScratch) -> Message {
        let words = scratch.words
        if nonce.count == Self.standardNonceByteCount {
            let prefix = (
                UInt32(littleEndian: nonce.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
                UInt32(littleEndian: nonce.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                UInt32(littleEndian: nonce.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            )
            CounterBatchInput.writeCounterBlocks(into: words, prefix: prefix, first: 0)
            words.update(repeating: 0, count: 4)  // slot 0: the zero block, for H
            cipher.encryptBatch(words)
            let ghash = Self.hashInstance(keyWords: words)
            scratch.tagMask.update(from: words + 4, count: 4)
            return Message(ghash: ghash, prefix: prefix, nextCounter: 4, readySlot: 2)
        }
        words.update(repeating: 0, count: KeystreamScratch.batchWordCount)
        cipher.encryptBatch(words)
        var nonceHash = Self.hashInstance(keyWords: words)
        nonceHash.update(nonce.baseAddress!, count: nonce.count)
        nonceHash.updateLengths(associatedDataByteCount: 0, textByteCount: nonce.count)
        var counterBlock: (UInt64, UInt64) = (0, 0)
        let (prefix, firstCounter) = withUnsafeMutableBytes(of: &counterBlock) { block in
            nonceHash.finalize(into: block.baseAddress!)
            return (
                (
                    UInt32(littleEndian: block.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
                    UInt32(littleEndian: block.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                    UInt32(littleEndian: block.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
                ),
                UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
            )
        }
        let ghash = nonceHash.restarted()
        nonceHash.wipe()
        Wipe.value(&counterBlock, .keystream)
        return start(prefix: prefix, counter: firstCounter, ghash: ghash, scratch: scratch)
    }

    /// Starts a message from an explicit J0 (`prefix` and `counter`) with a known GHASH:
    /// one batch holding [J0, …, inc32³(J0)].
    func start(prefix: (UInt32, UInt32, UInt32), counter: UInt32, ghash: GHash, scratch: KeystreamScratch) -> Message {
        let words = scratch.words
        CounterBatchInput.writeCounterBlocks(into: words, prefix: prefix, first: counter)
        cipher.encryptBatch(words)
        scratch.tagMask.update(from: words, count: 4)
        return Message(ghash: ghash, prefix: prefix, nextCounter: counter &+ 4, readySlot: 1)
    }

    /// A GHASH keyed with the encrypted zero block held in the first four words.
    private static func hashInstance(keyWords words: UnsafePointer<UInt32>) -> GHash {
        var key: (UInt32, UInt32, UInt32, UInt32) = (
            words[0].littleEndian, words[1].littleEndian, words[2].littleEndian, words[3].littleEndian
        )
        let ghash = withUnsafeBytes(of: &key) { GHash(key: $0.baseAddress!) }
        Wipe.value(&key, .ghashKey)
        return ghash
    }

    /// The tag: GHASH over the padded associated data, the padded ciphertext and their
    /// lengths, masked with the encryption of J0.
    private func authenticationTag(
        _ ghash: inout GHash,
        scratch: KeystreamScratch,
        ciphertext: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer,
        into tag: UnsafeMutableRawPointer
    ) {
        if let bytes = associatedData.baseAddress { ghash.update(bytes, count: associatedData.count) }
        if let bytes = ciphertext.baseAddress { ghash.update(bytes, count: ciphertext.count) }
        ghash.updateLengths(associatedDataByteCount: associatedData.count, textByteCount: ciphertext.count)
        ghash.finalize(into: tag)
        Self.xor(keystream: scratch.tagMask, input: UnsafeRawPointer(tag), output: tag, count: Self.tagByteCount)
    }

    /// Counter mode: XORs the keystream into `count` bytes, first the blocks left over
    /// in the scratch batch by ``start(nonce:scratch:)``, then fresh batches. The
    /// counter is the last 32 bits of the block and wraps without carrying into the
    /// nonce, as SP 800-38D's inc32 requires.
    func applyKeystream(
        _ message: inout Message, scratch: KeystreamScratch, input: UnsafeRawPointer, output: UnsafeMutableRawPointer, count: Int
    ) {
        let words = scratch.words
        let batchByteCount = 16 * BitslicedState.blockCount
        var offset = Swift.min(count, 16 &* (BitslicedState.blockCount &- message.readySlot))
        Self.xor(keystream: words + 4 &* message.readySlot, input: input, output: output, count: offset)
        var counterBlocks = CounterBatchInput(prefix: message.prefix)
        while offset < count {
            counterBlocks.encryptBatch(counter: message.nextCounter, with: cipher, into: words)
            message.nextCounter &+= UInt32(BitslicedState.blockCount)
            let chunk = Swift.min(count &- offset, batchByteCount)
            Self.xor(keystream: words, input: input + offset, output: output + offset, count: chunk)
            offset &+= chunk
        }
        message.readySlot = BitslicedState.blockCount
    }

    /// `output = input ⊕ keystream` for `count` bytes (at most one batch), the keystream
    /// given as the cipher's little-endian words: eight bytes at a time, then byte by
    /// byte. Positions are public; no index depends on a secret.
    @inline(__always)
    private static func xor(keystream: UnsafePointer<UInt32>, input: UnsafeRawPointer, output: UnsafeMutableRawPointer, count: Int) {
        let wholeWords = count &>> 3
        for index in 0..<wholeWords {
            let keyWord = UInt64(keystream[2 &* index]) | (UInt64(keystream[2 &* index &+ 1]) &<< 32)
            let textWord = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: 8 &* index, as: UInt64.self))
            output.storeBytes(of: (textWord ^ keyWord).littleEndian, toByteOffset: 8 &* index, as: UInt64.self)
        }
        for index in (wholeWords &<< 3)..<count {
            let keyByte = UInt8(truncatingIfNeeded: keystream[index &>> 2] &>> UInt32(8 &* (index & 3)))
            output.storeBytes(of: input.load(fromByteOffset: index, as: UInt8.self) ^ keyByte, toByteOffset: index, as: UInt8.self)
        }
    }
}
