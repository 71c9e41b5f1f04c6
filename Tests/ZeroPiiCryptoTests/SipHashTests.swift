import Testing
import ZeroPiiCrypto

/// SipHash-2-4 and SipHash-2-4-128 against the reference vectors (every message length
/// from 0 to 63 bytes, so every length of the last block), against another
/// implementation for other keys and a long message, and the incremental use the vault
/// makes of it: a state after a common prefix, copied and finished with different
/// endings, is SipHash of each whole message.
struct SipHashTests {
    static let referenceKey = (0..<16).map { UInt8($0) }

    @Test(arguments: [SipHash.Width.bits64, .bits128], 0..<64)
    func referenceVector(width: SipHash.Width, length: Int) {
        let message = (0..<length).map { UInt8($0) }
        let output = Self.referenceKey.withUnsafeBytes { key in
            message.withUnsafeBytes { SipHash.hash($0, key: key, width: width) }
        }
        let expected = width == .bits64 ? SipHashVectors.sipHash64[length] : SipHashVectors.sipHash128[length]
        #expect(output == [UInt8](hex: expected))
    }

    /// Outputs of the `siphash24` Python package (a C implementation) for keys other
    /// than the reference one.
    @Test func otherKeysAgreeWithAnotherImplementation() {
        let cases: [(key: String, message: [UInt8], output: String)] = [
            (String(repeating: "ff", count: 16), (0..<200).map { UInt8($0) }, "bd4a788bafc8050f"),
            ("0f1e2d3c4b5a69788796a5b4c3d2e1f0", Array("user123456@example.com".utf8), "9ffe4f5eede31869"),
        ]
        for (key, message, output) in cases {
            let computed = [UInt8](hex: key).withUnsafeBytes { key in
                message.withUnsafeBytes { SipHash.hash($0, key: key, width: .bits64) }
            }
            #expect(computed == [UInt8](hex: output), "key \(key)")
        }
    }

    /// The way the vault's round function calls it: one prefix of whole words absorbed
    /// once, then each output from a copy finished with a 4-byte counter.
    @Test(arguments: [SipHash.Width.bits64, .bits128])
    func aCopiedPrefixFinishedWithEachEndingIsTheWholeMessagesHash(width: SipHash.Width) {
        let prefix = (0..<24).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let prefixState = Self.referenceKey.withUnsafeBytes { key in
            var state = SipHash(key: key, width: width)
            prefix.withUnsafeBytes { state.absorb(words: $0) }
            return state
        }
        for counter in UInt32(0)..<5 {
            let whole = prefix + withUnsafeBytes(of: counter.littleEndian) { Array($0) }
            let expected = Self.referenceKey.withUnsafeBytes { key in whole.withUnsafeBytes { SipHash.hash($0, key: key, width: width) } }
            var incremental: [UInt8] = []
            switch width {
            case .bits64:
                withUnsafeBytes(of: prefixState.finalize64(tail: UInt64(counter), tailCount: 4).littleEndian) { incremental += $0 }
            case .bits128:
                let (first, second) = prefixState.finalize128(tail: UInt64(counter), tailCount: 4)
                withUnsafeBytes(of: first.littleEndian) { incremental += $0 }
                withUnsafeBytes(of: second.littleEndian) { incremental += $0 }
            }
            #expect(incremental == expected, "counter \(counter)")
        }
    }

    /// Bytes of a tail beyond its count do not count: only `tailCount` low bytes are read.
    @Test func bytesOfATailBeyondItsCountAreIgnored() {
        let state = Self.referenceKey.withUnsafeBytes { SipHash(key: $0, width: .bits64) }
        #expect(state.finalize64(tail: 0x0201_00, tailCount: 3) == state.finalize64(tail: 0xFFFF_FFFF_FF02_0100, tailCount: 3))
        let twoBytes = [UInt8(0), 1]
        let expected = Self.referenceKey.withUnsafeBytes { key in twoBytes.withUnsafeBytes { SipHash.hash($0, key: key, width: .bits64) } }
        #expect(withUnsafeBytes(of: state.finalize64(tail: 0xABCD_0100, tailCount: 2).littleEndian) { Array($0) } == expected)
    }
}
