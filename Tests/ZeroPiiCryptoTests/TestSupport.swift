import Foundation
import Testing

extension Array where Element == UInt8 {
    /// Bytes from a hex string; traps on malformed input, which only test tables contain.
    init(hex: String) {
        precondition(hex.count % 2 == 0, "hex strings have an even length")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = bytes
    }

    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

extension Data {
    init(hex: String) { self.init([UInt8](hex: hex)) }
    var hex: String { [UInt8](self).hex }
}

/// A reproducible pseudo-random generator for tests (SplitMix64), so a failing case
/// can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}
