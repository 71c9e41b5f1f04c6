import Foundation

/// Comparisons whose running time depends only on the lengths of their inputs,
/// never on their contents, so that comparing a secret (a tag, a digest, a client
/// secret) leaks nothing through timing.
package enum ConstantTime {
    /// Whether two byte buffers hold the same bytes. Buffers of different lengths
    /// compare unequal; lengths are public, so that early return leaks nothing.
    static func equals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<lhs.count {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }

    /// Whether two byte collections hold the same bytes, compared in constant time.
    /// Collections of different lengths compare unequal at once: lengths are public.
    package static func equals<LHS: ContiguousBytes, RHS: ContiguousBytes>(_ lhs: LHS, _ rhs: RHS) -> Bool {
        lhs.withUnsafeBytes { lhsBytes in
            rhs.withUnsafeBytes { rhsBytes in
                equals(lhsBytes, rhsBytes)
            }
        }
    }
}
