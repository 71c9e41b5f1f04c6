/// LegacyAES-GCM (NIST SP 800-38D) on raw buffers: the counter mode, the tag, and the
/// checks on lengths. The public ``LegacyAES/GCM`` API wraps this with Foundation types.
struct LegacyGCMEngine {
    /// The largest plaintext GCM allows: 2^39 − 256 bits.
    static let maximumTextByteCount: UInt64 = (1 << 36) - 32
    /// GCM's limit on associated data and nonces: 2^64 − 1 bits.
    static let maximumBitLengthByteCount: UInt64 = (1 << 61) - 1
    static let tagByteCount = 16
    static let standardNonceByteCount = 12

    private let cipher: LegacyBitslicedAES
    private let hashKey: (UInt64, UInt64)

    /// - Throws: ``LegacyCryptoError/incorrectKeySize`` unless the key is 16, 24 or 32 bytes.
    init(key: UnsafeRawBufferPointer) throws {
        let cipher = try LegacyBitslicedAES(key: key)
        var zeroBlock: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &zeroBlock) { cipher.encryptBlock($0.baseAddress!) }
        self.cipher = cipher
        hashKey = zeroBlock
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
        var counterBlock = initialCounterBlock(nonce: nonce)
        if let input = text.baseAddress, let output {
            applyKeystream(after: counterBlock, input: input, output: UnsafeMutableRawPointer(output), count: text.count)
        }
        let ciphertext = UnsafeRawBufferPointer(start: output.map { UnsafeRawPointer($0) }, count: text.count)
        authenticationTag(counterBlock: &counterBlock, ciphertext: ciphertext, associatedData: associatedData, into: tag)
    }

    /// Checks the tag and, only if it matches, decrypts `ciphertext` into `output`.
    /// - Throws: ``LegacyCryptoError/authenticationFailure`` before any plaintext is written.
    func open(
        nonce: UnsafeRawBufferPointer,
        ciphertext: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer,
        output: UnsafeMutableRawPointer?
    ) throws {
        try Self.checkLengths(nonce: nonce.count, text: ciphertext.count, associatedData: associatedData.count)
        guard tag.count == Self.tagByteCount else { throw LegacyCryptoError.authenticationFailure }
        var counterBlock = initialCounterBlock(nonce: nonce)
        var expectedTag: (UInt64, UInt64) = (0, 0)
        let matches = withUnsafeMutableBytes(of: &expectedTag) { expected -> Bool in
            authenticationTag(
                counterBlock: &counterBlock, ciphertext: ciphertext, associatedData: associatedData,
                into: expected.baseAddress!
            )
            return LegacyConstantTime.equals(UnsafeRawBufferPointer(expected), tag)
        }
        guard matches else { throw LegacyCryptoError.authenticationFailure }
        if let input = ciphertext.baseAddress, let output {
            applyKeystream(after: counterBlock, input: input, output: output, count: ciphertext.count)
        }
    }

    private static func checkLengths(nonce: Int, text: Int, associatedData: Int) throws {
        guard nonce > 0, UInt64(nonce) <= maximumBitLengthByteCount,
            UInt64(text) <= maximumTextByteCount,
            UInt64(associatedData) <= maximumBitLengthByteCount
        else { throw LegacyCryptoError.incorrectParameterSize }
    }

    /// J0: the nonce followed by a 32-bit counter of 1 for 12-byte nonces; the GHASH of
    /// the padded nonce and its bit length for any other length.
    private func initialCounterBlock(nonce: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var block: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &block) { blockBytes in
            let destination = blockBytes.baseAddress!
            if nonce.count == Self.standardNonceByteCount {
                destination.copyMemory(from: nonce.baseAddress!, byteCount: Self.standardNonceByteCount)
                destination.storeBytes(of: UInt32(1).bigEndian, toByteOffset: 12, as: UInt32.self)
            } else {
                var ghash = hashInstance()
                ghash.update(nonce.baseAddress!, count: nonce.count)
                ghash.updateLengths(associatedDataByteCount: 0, textByteCount: nonce.count)
                ghash.finalize(into: destination)
            }
        }
        return block
    }

    private func hashInstance() -> LegacyGHash {
        var key = hashKey
        return withUnsafeBytes(of: &key) { LegacyGHash(key: $0.baseAddress!) }
    }

    /// The tag: GHASH over the padded associated data, the padded ciphertext and their
    /// lengths, masked with the encryption of J0.
    private func authenticationTag(
        counterBlock: inout (UInt64, UInt64),
        ciphertext: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer,
        into tag: UnsafeMutableRawPointer
    ) {
        var ghash = hashInstance()
        if let bytes = associatedData.baseAddress { ghash.update(bytes, count: associatedData.count) }
        if let bytes = ciphertext.baseAddress { ghash.update(bytes, count: ciphertext.count) }
        ghash.updateLengths(associatedDataByteCount: associatedData.count, textByteCount: ciphertext.count)
        ghash.finalize(into: tag)

        var mask = counterBlock
        withUnsafeMutableBytes(of: &mask) { maskBytes in
            cipher.encryptBlock(maskBytes.baseAddress!)
            for index in 0..<Self.tagByteCount {
                tag.storeBytes(of: tag.load(fromByteOffset: index, as: UInt8.self) ^ maskBytes[index], toByteOffset: index, as: UInt8.self)
            }
        }
        mask = (0, 0)
    }

    /// Counter mode from inc32(J0): XORs the keystream into `count` bytes. The counter
    /// is the last 32 bits of the block, big-endian, and wraps without carrying into
    /// the nonce, as SP 800-38D's inc32 requires.
    func applyKeystream(after counterBlock: (UInt64, UInt64), input: UnsafeRawPointer, output: UnsafeMutableRawPointer, count: Int) {
        var block = counterBlock
        let (prefix0, prefix1, prefix2, initialCounter) = withUnsafeBytes(of: &block) { bytes in
            (
                bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self),
                bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self),
                UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
            )
        }
        // The cipher state reads words as little-endian; the raw loads above are native.
        let nonceWord0 = UInt32(littleEndian: prefix0)
        let nonceWord1 = UInt32(littleEndian: prefix1)
        let nonceWord2 = UInt32(littleEndian: prefix2)
        var counter = initialCounter &+ 1

        let blocksPerBatch = LegacyBitslicedState.blockCount
        let batchByteCount = 16 * blocksPerBatch
        let scratch = LegacyKeystreamScratch()
        let words = scratch.words
        do {
            var offset = 0
            while offset < count {
                for slot in 0..<blocksPerBatch {
                    words[4 &* slot] = nonceWord0
                    words[4 &* slot &+ 1] = nonceWord1
                    words[4 &* slot &+ 2] = nonceWord2
                    words[4 &* slot &+ 3] = UInt32(littleEndian: (counter &+ UInt32(truncatingIfNeeded: slot)).bigEndian)
                }
                counter &+= UInt32(blocksPerBatch)
                var state = LegacyBitslicedState(words: UnsafePointer(words))
                cipher.encrypt(&state)
                state.store(words: words)

                let chunk = count &- offset
                if chunk >= batchByteCount {
                    for index in 0..<(batchByteCount / 8) {
                        let keyWord = UInt64(words[2 &* index]) | (UInt64(words[2 &* index &+ 1]) &<< 32)
                        let textWord = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: offset &+ 8 &* index, as: UInt64.self))
                        output.storeBytes(of: (textWord ^ keyWord).littleEndian, toByteOffset: offset &+ 8 &* index, as: UInt64.self)
                    }
                    offset &+= batchByteCount
                } else {
                    for index in 0..<(4 * blocksPerBatch) { words[index] = words[index].littleEndian }
                    let keystream = UnsafeRawPointer(words)
                    for index in 0..<chunk {
                        let byte =
                            input.load(fromByteOffset: offset &+ index, as: UInt8.self)
                            ^ keystream.load(fromByteOffset: index, as: UInt8.self)
                        output.storeBytes(of: byte, toByteOffset: offset &+ index, as: UInt8.self)
                    }
                    offset &+= chunk
                }
            }
        }
    }
}
