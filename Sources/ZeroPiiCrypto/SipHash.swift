/// SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed pseudorandom function built for
/// short messages, with a 128-bit key and a 64- or 128-bit output.
///
/// The mock server's vault uses it as the round function of its format-preserving
/// cipher (vault format 3), where each value needs a few dozen short pseudorandom
/// outputs: SipHash gives them at a small fraction of SHA-256's cost per call. It is
/// add-rotate-xor throughout, so it is constant time in its key and message.
///
/// Messages are absorbed in 8-byte little-endian words and finished with their last 0 to
/// 7 bytes. An instance is a value: a state after a common prefix can be copied and each
/// copy finished with a different ending, which is SipHash of each whole message.
package struct SipHash: Sendable {
    /// The output width: SipHash-2-4 proper (64 bits) or its 128-bit variant, whose
    /// initial state and finalisation differ, so the width is fixed at the start.
    package enum Width: Sendable {
        /// SipHash-2-4: one 64-bit output.
        case bits64
        /// SipHash-2-4-128: two 64-bit halves.
        case bits128
    }

    private var v0: UInt64
    private var v1: UInt64
    private var v2: UInt64
    private var v3: UInt64
    /// Bytes absorbed so far; the finalisation block carries their count mod 256.
    private var length: UInt64 = 0
    private let width: Width

    /// A state keyed with `key0` and `key1`, the key's two 8-byte halves read
    /// little-endian, ready for a message.
    package init(key0: UInt64, key1: UInt64, width: Width) {
        v0 = key0 ^ 0x736f_6d65_7073_6575
        v1 = key1 ^ 0x646f_7261_6e64_6f6d
        v2 = key0 ^ 0x6c79_6765_6e65_7261
        v3 = key1 ^ 0x7465_6462_7974_6573
        if width == .bits128 { v1 ^= 0xee }
        self.width = width
    }

    /// A state keyed with the first 16 bytes of `key`.
    package init(key: UnsafeRawBufferPointer, width: Width) {
        precondition(key.count >= 16, "SipHash takes a 16-byte key")
        self.init(
            key0: UInt64(littleEndian: key.loadUnaligned(as: UInt64.self)),
            key1: UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 8, as: UInt64.self)), width: width)
    }

    @inline(__always)
    private static func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value &<< count) | (value &>> (64 &- count))
    }

    @inline(__always)
    private mutating func sipRound() {
        v0 &+= v1
        v1 = Self.rotateLeft(v1, 13)
        v1 ^= v0
        v0 = Self.rotateLeft(v0, 32)
        v2 &+= v3
        v3 = Self.rotateLeft(v3, 16)
        v3 ^= v2
        v0 &+= v3
        v3 = Self.rotateLeft(v3, 21)
        v3 ^= v0
        v2 &+= v1
        v1 = Self.rotateLeft(v1, 17)
        v1 ^= v2
        v2 = Self.rotateLeft(v2, 32)
    }

    @inline(__always)
    private mutating func compress(_ word: UInt64) {
        v3 ^= word
        sipRound()
        sipRound()
        v0 ^= word
    }

    /// Absorbs the next 8 message bytes, given as the little-endian word they make.
    @inline(__always)
    package mutating func absorb(word: UInt64) {
        compress(word)
        length &+= 8
    }

    /// Absorbs `bytes`, a whole number of 8-byte words. A message's last 0 to 7 bytes
    /// are not absorbed but passed to ``finalize64(tail:tailCount:)`` or
    /// ``finalize128(tail:tailCount:)``.
    package mutating func absorb(words bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count % 8 == 0, "absorb(words:) takes whole 8-byte words")
        var offset = 0
        while offset < bytes.count {
            absorb(word: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset &+= 8
        }
    }

    /// Absorbs the last block: the message's final `tailCount` (0 to 7) bytes, given as
    /// the low bytes of `tail` in little-endian order, with the length byte on top.
    @inline(__always)
    private mutating func absorbLast(tail: UInt64, tailCount: Int) {
        let total = length &+ UInt64(truncatingIfNeeded: tailCount)
        let mask: UInt64 = tailCount == 0 ? 0 : ~0 &>> (64 &- 8 &* UInt64(truncatingIfNeeded: tailCount))
        compress((tail & mask) | (total &<< 56))
    }

    /// The 64-bit output of SipHash-2-4 for the message absorbed so far followed by
    /// `tailCount` more bytes (the low bytes of `tail`, little-endian).
    package func finalize64(tail: UInt64 = 0, tailCount: Int = 0) -> UInt64 {
        finished(tail: tail, tailCount: tailCount, as: .bits64).output
    }

    /// The 128-bit output of SipHash-2-4-128, as its first and second 64-bit halves (each
    /// written little-endian in the byte form), for the message absorbed so far followed
    /// by `tailCount` more bytes.
    package func finalize128(tail: UInt64 = 0, tailCount: Int = 0) -> (UInt64, UInt64) {
        var state = finished(tail: tail, tailCount: tailCount, as: .bits128)
        let first = state.output
        state.v1 ^= 0xdd
        for _ in 0..<4 { state.sipRound() }
        return (first, state.output)
    }

    /// A copy of this state with the last block absorbed and the first output's four
    /// finalisation rounds done; the width's own constant marks the finalisation.
    @inline(__always)
    private func finished(tail: UInt64, tailCount: Int, as expected: Width) -> SipHash {
        precondition(width == expected, "a SipHash state finished at another width than it was keyed for")
        precondition((0..<8).contains(tailCount), "a SipHash tail is 0 to 7 bytes")
        var state = self
        state.absorbLast(tail: tail, tailCount: tailCount)
        state.v2 ^= expected == .bits64 ? 0xff : 0xee
        for _ in 0..<4 { state.sipRound() }
        return state
    }

    private var output: UInt64 { v0 ^ v1 ^ v2 ^ v3 }

    /// Absorbs every whole word of `message` and returns its last 0 to 7 bytes, as the
    /// `tail` and `tailCount` a finalize call takes.
    package mutating func absorbWords(of message: UnsafeRawBufferPointer) -> (tail: UInt64, tailCount: Int) {
        let whole = message.count & ~7
        absorb(words: UnsafeRawBufferPointer(rebasing: message[0..<whole]))
        var tail: UInt64 = 0
        var index = whole
        while index < message.count {
            tail |= UInt64(message[index]) &<< (8 &* UInt64(index &- whole))
            index &+= 1
        }
        return (tail, message.count &- whole)
    }

    /// SipHash of a whole byte string: its output bytes (8 or 16, each half
    /// little-endian), as the reference implementation writes them.
    package static func hash(_ message: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, width: Width) -> [UInt8] {
        var state = SipHash(key: key, width: width)
        let (tail, tailCount) = state.absorbWords(of: message)
        var output: [UInt8] = []
        func append(_ word: UInt64) { withUnsafeBytes(of: word.littleEndian) { output.append(contentsOf: $0) } }
        switch width {
        case .bits64:
            append(state.finalize64(tail: tail, tailCount: tailCount))
        case .bits128:
            let (first, second) = state.finalize128(tail: tail, tailCount: tailCount)
            append(first)
            append(second)
        }
        return output
    }
}
