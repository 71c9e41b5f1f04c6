import Foundation
import Testing
import ZeroPiiTestHelpers

@testable import ZeroPiiCrypto

/// The internal building blocks against independent references: the bitsliced S-box
/// against the S-box computed from its definition, the block cipher against FIPS 197,
/// GHASH's comb multiplication against a bit-by-bit carry-less multiplication, and
/// the inc32 counter wrap.
struct AESCoreTests {
    /// The AES S-box from its definition: inversion in GF(2^8), then the affine map.
    static func referenceSBox(_ input: UInt8) -> UInt8 {
        func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
            var (a, b, product): (UInt8, UInt8, UInt8) = (a, b, 0)
            while b != 0 {
                if b & 1 != 0 { product ^= a }
                a = (a << 1) ^ (a & 0x80 != 0 ? 0x1B : 0)
                b >>= 1
            }
            return product
        }
        var inverse: UInt8 = 0
        if input != 0 {
            inverse = (1...255).map { UInt8($0) }.first { multiply(input, $0) == 1 }!
        }
        func rotateLeft(_ x: UInt8, _ n: UInt8) -> UInt8 { (x << n) | (x >> (8 - n)) }
        return inverse ^ rotateLeft(inverse, 1) ^ rotateLeft(inverse, 2) ^ rotateLeft(inverse, 3) ^ rotateLeft(inverse, 4) ^ 0x63
    }

    @Test func bitslicedSubBytesMatchesTheSBoxForAll256Inputs() {
        // 128 bytes per state: two runs fill it with every value 0...255.
        let bytesPerState = 16 * BitslicedState.blockCount
        for run in 0..<(256 / bytesPerState) {
            var words = [UInt32](repeating: 0, count: bytesPerState / 4)
            for index in 0..<bytesPerState {
                let value = UInt32(run * bytesPerState + index)
                words[index / 4] |= value << (8 * UInt32(index % 4))
            }
            var state = words.withUnsafeBufferPointer { BitslicedState(words: $0.baseAddress!) }
            state.subBytes()
            words.withUnsafeMutableBufferPointer { state.store(words: $0.baseAddress!) }
            for index in 0..<bytesPerState {
                let input = UInt8(run * bytesPerState + index)
                let output = UInt8(truncatingIfNeeded: words[index / 4] >> (8 * UInt32(index % 4)))
                #expect(output == Self.referenceSBox(input), "S-box of \(input)")
            }
        }
    }

    /// FIPS 197 appendix C: the same plaintext under a 128-, 192- and 256-bit key.
    @Test(arguments: [
        ("000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"),
        ("000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"),
        ("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"),
    ])
    func fips197BlockEncryption(key: String, ciphertext: String) throws {
        let cipher = try [UInt8](hex: key).withUnsafeBytes { try BitslicedAES(key: $0) }
        var block = [UInt8](hex: "00112233445566778899aabbccddeeff")
        block.withUnsafeMutableBytes { cipher.encryptBlock($0.baseAddress!) }
        #expect(block.hex == ciphertext)
    }

    /// Carry-less multiplication one bit at a time: slow, obviously correct.
    static func referenceCarrylessMultiply(_ x: UInt64, _ y: UInt64) -> (high: UInt64, low: UInt64) {
        var (high, low): (UInt64, UInt64) = (0, 0)
        for bit in 0..<64 where (y >> UInt64(bit)) & 1 == 1 {
            low ^= x << UInt64(bit)
            if bit > 0 { high ^= x >> UInt64(64 - bit) }
        }
        return (high, low)
    }

    @Test func combMultiplicationMatchesBitByBitIncludingWorstCaseCarries() {
        var generator = SplitMix64(seed: 42)
        // All-ones operands put the most bits (16) into one column, at bit 60 and up of
        // the low half: the carry worst case. The patterns below fill one comb only.
        var operands: [(UInt64, UInt64)] = [
            (.max, .max), (0, .max), (.max, 1), (1 << 63, 1 << 63), (0x8000_0000_0000_0001, .max),
            (0x1111_1111_1111_1111, 0x1111_1111_1111_1111), (0x8888_8888_8888_8888, 0x8888_8888_8888_8888),
            (0x2222_2222_2222_2222, 0x4444_4444_4444_4444), (0xFFFF_FFFF_0000_0000, 0x0000_0000_FFFF_FFFF),
        ]
        for _ in 0..<2000 { operands.append((generator.next(), generator.next())) }
        for (x, y) in operands {
            let expected = Self.referenceCarrylessMultiply(x, y)
            let actual = GHash.carrylessMultiply(x, y)
            #expect(actual.high == expected.high && actual.low == expected.low, "\(x) × \(y)")
        }
    }

    @Test func bitReversalMatchesBitByBit() {
        var generator = SplitMix64(seed: 7)
        var values: [UInt64] = [0, .max, 1, 1 << 63, 0x0123_4567_89AB_CDEF]
        for _ in 0..<500 { values.append(generator.next()) }
        for value in values {
            var expected: UInt64 = 0
            for bit in 0..<64 where (value >> UInt64(bit)) & 1 == 1 { expected |= 1 << UInt64(63 - bit) }
            #expect(GHash.reversed(value) == expected, "\(value)")
        }
    }

    /// When the 32-bit counter of a non-standard nonce's J0 is near 2^32, counter mode
    /// wraps to zero without carrying into the rest of the block (inc32).
    @Test func counterWrapsInTheLow32BitsOnly() throws {
        let key = [UInt8](repeating: 0x42, count: 32)
        let engine = try key.withUnsafeBytes { try GCMEngine(key: $0) }
        let cipher = try key.withUnsafeBytes { try BitslicedAES(key: $0) }
        let prefix: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
        var counterBlock: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &counterBlock) { bytes in
            for index in 0..<12 { bytes[index] = prefix[index] }
            for index in 12..<16 { bytes[index] = 0xFF }
            bytes[15] = 0xFD  // J0 counter 0xFFFFFFFD: data uses FE, FF, 00000000, 00000001, ...
        }
        let length = 16 * 6
        let zeros = [UInt8](repeating: 0, count: length)
        var keystream = [UInt8](repeating: 0, count: length)
        zeros.withUnsafeBytes { input in
            keystream.withUnsafeMutableBytes { output in
                engine.applyKeystream(after: counterBlock, input: input.baseAddress!, output: output.baseAddress!, count: length)
            }
        }
        for (blockIndex, counter) in [UInt32(0xFFFF_FFFE), 0xFFFF_FFFF, 0, 1, 2, 3].enumerated() {
            var block = prefix + withUnsafeBytes(of: counter.bigEndian) { [UInt8]($0) }
            block.withUnsafeMutableBytes { cipher.encryptBlock($0.baseAddress!) }
            #expect(Array(keystream[(16 * blockIndex)..<(16 * blockIndex + 16)]) == block, "block \(blockIndex)")
        }
    }

    /// Counter mode builds the bit planes of each batch's counter blocks from the
    /// previous ones (``CounterBatchInput``). Every keystream block must still be the
    /// encryption of its own counter block: across the last byte's carry into the
    /// upper bytes, across the 2^32 wrap, and for counters that are not a multiple of
    /// four (the transposed path).
    @Test func everyCounterBlockIsEncryptedOnItsOwn() throws {
        let key = (0..<32).map { UInt8($0 &* 7 &+ 3) }
        let engine = try key.withUnsafeBytes { try GCMEngine(key: $0) }
        let cipher = try key.withUnsafeBytes { try BitslicedAES(key: $0) }
        let prefix: [UInt8] = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0xFF, 0x80]
        let starts: [UInt32] = [0, 1, 0xF8, 0xFC, 0x0001_FFF0, 0xFFFF_FEF8, 0xFFFF_FFF0, 0xFFFF_FFFD, 0x7F, 0x1_02]
        for start in starts {
            var counterBlock: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &counterBlock) { bytes in
                for index in 0..<12 { bytes[index] = prefix[index] }
                withUnsafeBytes(of: start.bigEndian) { for index in 0..<4 { bytes[12 + index] = $0[index] } }
            }
            let blockCount = 300
            let zeros = [UInt8](repeating: 0, count: 16 * blockCount + 5)
            var keystream = zeros
            zeros.withUnsafeBytes { input in
                keystream.withUnsafeMutableBytes { output in
                    engine.applyKeystream(after: counterBlock, input: input.baseAddress!, output: output.baseAddress!, count: zeros.count)
                }
            }
            for index in 0...blockCount {
                let counter = start &+ 1 &+ UInt32(index)
                var block = prefix + withUnsafeBytes(of: counter.bigEndian) { [UInt8]($0) }
                block.withUnsafeMutableBytes { cipher.encryptBlock($0.baseAddress!) }
                let range = (16 * index)..<min(16 * index + 16, keystream.count)
                #expect(Array(keystream[range]) == Array(block[0..<range.count]), "start \(start), block \(index)")
            }
        }
    }

    @Test func constantTimeComparison() {
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
        #expect(ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
    }

    @Test func gcmLengthLimits() throws {
        #expect(GCMEngine.maximumTextByteCount == 68_719_476_704)
        let engine = try [UInt8](repeating: 0, count: 16).withUnsafeBytes { try GCMEngine(key: $0) }
        var tag = [UInt8](repeating: 0, count: 16)
        // A length past the limit is refused before any byte is read, so a fake buffer suffices.
        let oversized = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: 0x1000), count: Int(GCMEngine.maximumTextByteCount) + 1)
        let nonce = [UInt8](repeating: 0, count: 12)
        #expect(throws: CryptoError.incorrectParameterSize) {
            try nonce.withUnsafeBytes { nonceBytes in
                try tag.withUnsafeMutableBytes { tagBytes in
                    try engine.seal(
                        nonce: nonceBytes, text: oversized, associatedData: UnsafeRawBufferPointer(start: nil, count: 0), output: nil,
                        tag: tagBytes.baseAddress!)
                }
            }
        }
    }
}
