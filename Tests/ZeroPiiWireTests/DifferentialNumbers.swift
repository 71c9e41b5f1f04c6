import Foundation
import ZeroPiiTestHelpers

/// The bit patterns the number-format differential test sends to both sides: values
/// chosen for the algorithm's edges, and bulk sets (random patterns, runs of integers).
/// Every value is finite; the chosen ones come with both signs.
enum DifferentialNumbers {
    // MARK: - Float

    /// Zero, the extremes, every power of two and of ten with their neighbours, runs of
    /// patterns around 10^-3 and 10^7 (where the layout switches between plain and
    /// scientific), the first, last and some random subnormals, integers up to 65,536
    /// and the run of integers around 2^24.
    static func chosenFloats() -> [UInt32] {
        var values: [Float] = [0, 1, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 0.1, 3.14, 123_456_792]
        for exponent in -149...127 {
            values += neighbourhood(of: Float(sign: .plus, exponent: exponent, significand: 1))
        }
        for exponent in -45...38 {
            values += neighbourhood(of: Float("1e\(exponent)")!)
        }
        var patterns = values.map(\.bitPattern)
        for boundary: Float in [1e-3, 1e7] {
            patterns += (boundary.bitPattern - 1000)...(boundary.bitPattern + 1000)
        }
        patterns += 1...2000
        patterns += (0x7F_FFFF - 2000)...0x80_0000
        var random = SplitMix64(seed: 0xF10A7)
        patterns += (0..<2000).map { _ in UInt32(truncatingIfNeeded: random.next()) & 0x7F_FFFF }
        patterns += (0...65_536).map { Float($0).bitPattern }
        patterns += (16_777_216 - 2000...16_777_216 + 2000).map { Float($0).bitPattern }
        return withBothSigns(patterns.filter { Float(bitPattern: $0).isFinite })
    }

    /// Every integer from 0 to 2^24, and `count` random finite bit patterns.
    static func bulkFloats(randomCount count: Int) -> [UInt32] {
        var patterns = [UInt32]()
        patterns.reserveCapacity(16_777_217 + count)
        for integer in 0...16_777_216 { patterns.append(Float(integer).bitPattern) }
        var random = SplitMix64(seed: 20_261_201)
        var added = 0
        while added < count {
            let pattern = UInt32(truncatingIfNeeded: random.next())
            if pattern & 0x7F80_0000 != 0x7F80_0000 {
                patterns.append(pattern)
                added += 1
            }
        }
        return patterns
    }

    // MARK: - Double

    /// Zero, the extremes, every power of two and of ten with their neighbours, runs
    /// around 10^-3 and 10^7, the first, last and some random subnormals, integers up to
    /// 65,536, the run around 2^53, and random whole numbers of every size (the path for
    /// whole numbers below 2^63 rounds off digits past the precision).
    static func chosenDoubles() -> [UInt64] {
        var values: [Double] = [0, 1, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 0.1, 0.1 + 0.2, 1e23]
        for exponent in -1074...1023 {
            values += neighbourhood(of: Double(sign: .plus, exponent: exponent, significand: 1))
        }
        for exponent in -323...308 {
            values += neighbourhood(of: Double("1e\(exponent)")!)
        }
        var random = SplitMix64(seed: 0xD0B1E)
        for _ in 0..<20_000 {
            let integer = random.next() >> (random.next() % 64)
            values.append(Double(integer))
        }
        var patterns = values.map(\.bitPattern)
        for boundary in [1e-3, 1e7] {
            patterns += (boundary.bitPattern - 1000)...(boundary.bitPattern + 1000)
        }
        patterns += 1...2000
        patterns += (0xF_FFFF_FFFF_FFFF - 2000)...0x10_0000_0000_0000
        patterns += (0..<2000).map { _ in random.next() & 0xF_FFFF_FFFF_FFFF }
        patterns += (0...65_536).map { Double($0).bitPattern }
        let twoToThe53 = Double(sign: .plus, exponent: 53, significand: 1).bitPattern
        patterns += (twoToThe53 - 5000)...(twoToThe53 + 5000)
        return withBothSigns(patterns.filter { Double(bitPattern: $0).isFinite })
    }

    /// The 200,000 patterns on either side of 2^53, and `count` random finite patterns.
    static func bulkDoubles(randomCount count: Int) -> [UInt64] {
        let twoToThe53 = Double(sign: .plus, exponent: 53, significand: 1).bitPattern
        var patterns = Array((twoToThe53 - 200_000)...(twoToThe53 + 200_000))
        patterns.reserveCapacity(patterns.count + count)
        var random = SplitMix64(seed: 20_261_202)
        var added = 0
        while added < count {
            let pattern = random.next()
            if pattern & 0x7FF0_0000_0000_0000 != 0x7FF0_0000_0000_0000 {
                patterns.append(pattern)
                added += 1
            }
        }
        return patterns
    }

    // MARK: - Helpers

    private static func neighbourhood<Value: BinaryFloatingPoint>(of value: Value) -> [Value] {
        [value.nextDown, value, value.nextUp].filter { $0.isFinite && $0 >= 0 }
    }

    private static func withBothSigns<Pattern: FixedWidthInteger & UnsignedInteger>(_ patterns: [Pattern]) -> [Pattern] {
        let signBit: Pattern = 1 << (Pattern.bitWidth - 1)
        return patterns + patterns.map { $0 | signBit }
    }

    /// Little-endian bytes, the layout both programs read.
    static func data<Pattern: FixedWidthInteger>(_ patterns: [Pattern]) -> Data {
        patterns.map(\.littleEndian).withUnsafeBytes { Data($0) }
    }
}
