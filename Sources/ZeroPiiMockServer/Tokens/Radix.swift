/// The radix of one position of a value's format, with what the cipher's rounds need
/// to work modulo it without dividing.
///
/// A 64-bit division costs tens of cycles and the rounds took two per position, 16
/// rounds per value: more than all the rest of a round's bookkeeping. `remainder` is
/// Lemire, Kaser and Kurz's direct computation ("Faster remainder by direct computation",
/// 2019), exact for every 32-bit word and radix; `adding` and `subtracting` reduce a sum
/// of two symbols, each below the radix, with a mask rather than a branch, so neither
/// depends on a value's symbols for its timing.
struct Radix: Sendable {
    let value: Int
    /// ⌈2^64 / value⌉, wrapping to 0 for a radix of 1 (whose remainders are all 0).
    private let multiplier: UInt64

    init(_ value: Int) {
        precondition(value >= 1 && value <= Int(UInt32.max), "a radix is from 1 to 2^32 - 1")
        self.value = value
        multiplier = UInt64.max / UInt64(value) &+ 1
    }

    /// `word % value`, exactly.
    @inline(__always)
    func remainder(_ word: UInt32) -> Int {
        let fraction = multiplier &* UInt64(word)
        return Int(truncatingIfNeeded: fraction.multipliedFullWidth(by: UInt64(value)).high)
    }

    /// `(symbol + offset) % value` for a symbol and an offset below the radix.
    @inline(__always)
    func adding(_ offset: Int, to symbol: Int) -> Int {
        let difference = symbol &+ offset &- value
        return difference &+ (value & (difference >> (Int.bitWidth - 1)))
    }

    /// `(symbol - offset) mod value` for a symbol and an offset below the radix.
    @inline(__always)
    func subtracting(_ offset: Int, from symbol: Int) -> Int {
        let difference = symbol &- offset
        return difference &+ (value & (difference >> (Int.bitWidth - 1)))
    }
}
