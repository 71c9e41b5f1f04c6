import ZeroPiiTestHelpers

@testable import ZeroPiiMockServer

/// A cheap keyed mixer (SplitMix64 steps over the message) standing in for keyed SHA-256
/// where a test runs the cipher over a million values in a debug build. The cipher is a
/// fixed-point-free permutation of each format whatever its round function returns, so
/// the properties those tests check are the production cipher's; the production round
/// function is exercised by the other tests.
struct FastRoundFunction: FeistelRoundFunction {
    let key: UInt64

    func tweak(for format: [UInt8]) -> FormatTweak {
        var state = key
        var index = 0
        while index < format.count {
            state = Self.mix(state ^ UInt64(format[index]))
            index += 1
        }
        let high = Self.mix(state)
        return FormatTweak(high: high, low: Self.mix(high))
    }

    func words(round: Int, tweak: FormatTweak, source: UnsafeBufferPointer<Int>, into words: UnsafeMutableBufferPointer<UInt32>) {
        var state = key ^ UInt64(round) ^ tweak.high << 8
        var index = 0
        while index < source.count {
            state = Self.mix(state ^ UInt64(truncatingIfNeeded: source[index]))
            index += 1
        }
        index = 0
        while index < words.count {
            state = Self.mix(state)
            words[index] = UInt32(truncatingIfNeeded: state >> 32)
            index += 1
        }
    }

    private static func mix(_ input: UInt64) -> UInt64 {
        var value = input &+ 0x9E37_79B9_7F4A_7C15
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
