import Testing
import ZeroPiiTestHelpers

@testable import ZeroPiiCrypto

/// GHASH against SP 800-38D's own definition, one bit at a time, at every length that
/// takes a different path: the block-at-a-time loop, the padded last block, and the
/// four-block aggregation from ``GHash/aggregationThreshold`` on.
struct GHashTests {
    /// X · Y in GCM's field as section 6.3 of SP 800-38D writes it (Algorithm 1), on
    /// big-endian halves: bit 0 is the most significant bit of the first byte.
    static func referenceMultiply(_ x: (high: UInt64, low: UInt64), _ y: (high: UInt64, low: UInt64)) -> (high: UInt64, low: UInt64) {
        var z: (high: UInt64, low: UInt64) = (0, 0)
        var v = y
        for bit in 0..<128 {
            let set = bit < 64 ? (x.high >> UInt64(63 - bit)) & 1 : (x.low >> UInt64(127 - bit)) & 1
            if set == 1 {
                z.high ^= v.high
                z.low ^= v.low
            }
            let carry = v.low & 1
            v.low = (v.low >> 1) | (v.high << 63)
            v.high >>= 1
            if carry == 1 { v.high ^= 0xE100_0000_0000_0000 }
        }
        return z
    }

    static func referenceHash(key: [UInt8], data: [UInt8]) -> [UInt8] {
        func halves(_ bytes: ArraySlice<UInt8>) -> (high: UInt64, low: UInt64) {
            var block = [UInt8](bytes)
            block += [UInt8](repeating: 0, count: 16 - block.count)
            let high = block[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let low = block[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return (high, low)
        }
        let h = halves(key[0..<16])
        var y: (high: UInt64, low: UInt64) = (0, 0)
        for start in stride(from: 0, to: data.count, by: 16) {
            let x = halves(data[start..<min(start + 16, data.count)])
            y = referenceMultiply((y.high ^ x.high, y.low ^ x.low), h)
        }
        return (0..<8).map { UInt8(truncatingIfNeeded: y.high >> UInt64(56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: y.low >> UInt64(56 - 8 * $0)) }
    }

    static func hash(key: [UInt8], data: [UInt8], splitAt split: Int? = nil) -> [UInt8] {
        var ghash = key.withUnsafeBytes { GHash(key: $0.baseAddress!) }
        data.withUnsafeBytes { bytes in
            // Split only at a block boundary: GHASH pads each update's last partial block.
            let first = split ?? data.count
            if first > 0 { ghash.update(bytes.baseAddress!, count: first) }
            if data.count > first { ghash.update(bytes.baseAddress! + first, count: data.count - first) }
        }
        var output = [UInt8](repeating: 0, count: 16)
        output.withUnsafeMutableBytes { ghash.finalize(into: $0.baseAddress!) }
        return output
    }

    @Test func everyPathMatchesTheBitByBitDefinition() {
        var generator = SplitMix64(seed: 18)
        let threshold = GHash.aggregationThreshold
        let lengths = Array(0...80) + Array((threshold - 33)...(threshold + 80)) + [1000, 1024, 4096 + 7, 16 * 1024 + 48]
        for length in lengths {
            let key = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Self.hash(key: key, data: data) == Self.referenceHash(key: key, data: data), "\(length) bytes")
        }
    }

    /// All-ones keys and data put the most bits into every column of every product, in
    /// the aggregated sums too.
    @Test func allOnesAndSingleBitsMatchTheDefinition() {
        let patterns: [(key: [UInt8], byte: UInt8)] = [
            ([UInt8](repeating: 0xFF, count: 16), 0xFF),
            ([0x80] + [UInt8](repeating: 0, count: 15), 0xFF),
            ([UInt8](repeating: 0, count: 15) + [0x01], 0x01),
            ([UInt8](repeating: 0xFF, count: 16), 0x80),
        ]
        for (key, byte) in patterns {
            for length in [16, 64, GHash.aggregationThreshold, GHash.aggregationThreshold + 64 + 16, 2048] {
                let data = [UInt8](repeating: byte, count: length)
                #expect(Self.hash(key: key, data: data) == Self.referenceHash(key: key, data: data), "\(key) \(byte) \(length)")
            }
        }
    }

    /// A long input after a short one (GCM's associated data, then its text) goes
    /// on from the running value, whichever path each part takes.
    @Test func aggregationContinuesFromTheRunningValue() {
        var generator = SplitMix64(seed: 1818)
        let key = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let data = (0..<(48 + 4 * GHash.aggregationThreshold)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let expected = Self.referenceHash(key: key, data: data)
        for split in [16, 48, GHash.aggregationThreshold, data.count - GHash.aggregationThreshold] {
            #expect(Self.hash(key: key, data: data, splitAt: split) == expected, "split at \(split)")
        }
    }
}
