/// The LegacyAES block cipher (FIPS 197), encryption direction only, bitsliced and
/// constant-time. Four blocks are encrypted at once; GCM only ever encrypts.
///
/// The rounds are "fixsliced" (Adomnicai and Peyrin, 2020): instead of moving bytes
/// for ShiftRows every round, the state is left unshifted and each round's MixColumns
/// reads its columns where the shifted bytes would have been (four variants, by round
/// number mod 4). Round key `r` is stored pre-shifted by ShiftRows^-r to match, and the
/// last round applies the accumulated ShiftRows^rounds once. This removes the most
/// expensive linear step from every round but the last.
///
/// The expanded key is kept in bitsliced form, eight words per round, in memory
/// that is wiped on release. The instance is immutable after initialisation and
/// so safe to share between threads.
final class LegacyBitslicedAES: @unchecked Sendable {
    /// 10, 12 or 14.
    let roundCount: Int
    private let roundKeys: UnsafeMutablePointer<UInt64>
    private let roundKeyWordCount: Int

    /// Expands a 16-, 24- or 32-byte key.
    /// - Throws: ``LegacyCryptoError/incorrectKeySize`` for any other length.
    init(key: UnsafeRawBufferPointer) throws {
        let keyWordCount = key.count / 4
        switch key.count {
        case 16: roundCount = 10
        case 24: roundCount = 12
        case 32: roundCount = 14
        default: throw LegacyCryptoError.incorrectKeySize
        }
        let scheduleWordCount = 4 * (roundCount + 1)
        var schedule = [UInt32](repeating: 0, count: scheduleWordCount)
        defer { schedule.withUnsafeMutableBytes { LegacyWipe.bytes($0) } }

        for index in 0..<keyWordCount {
            schedule[index] = UInt32(littleEndian: key.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
        }
        // The schedule's branches depend on the word index only, never on key bytes.
        var roundConstant: UInt32 = 1
        var previous = schedule[keyWordCount - 1]
        for index in keyWordCount..<scheduleWordCount {
            if index % keyWordCount == 0 {
                // RotWord on a little-endian word moves the first byte to the end.
                previous = (previous &<< 24) | (previous &>> 8)
                previous = Self.substituteWord(previous) ^ roundConstant
                roundConstant = Self.doubleInField(roundConstant)
            } else if keyWordCount > 6 && index % keyWordCount == 4 {
                previous = Self.substituteWord(previous)
            }
            previous ^= schedule[index - keyWordCount]
            schedule[index] = previous
        }

        roundKeyWordCount = 8 * (roundCount + 1)
        roundKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: roundKeyWordCount)
        for round in 0...roundCount {
            // The same round key for all four block slots.
            let (evenBytes, oddBytes) = LegacyBitslicedState.interleave(
                schedule[4 * round], schedule[4 * round + 1], schedule[4 * round + 2], schedule[4 * round + 3]
            )
            let even = evenBytes
            let odd = oddBytes
            var state = LegacyBitslicedState()
            (state.q0, state.q1, state.q2, state.q3) = (even, even, even, even)
            (state.q4, state.q5, state.q6, state.q7) = (odd, odd, odd, odd)
            state.transpose()
            if round > 0 && round < roundCount {
                // The state after round r lags r ShiftRows behind; so must its key.
                state.shiftRows(power: (4 - round % 4) % 4)
            }
            let destination = roundKeys + 8 * round
            (destination[0], destination[1], destination[2], destination[3]) = (state.q0, state.q1, state.q2, state.q3)
            (destination[4], destination[5], destination[6], destination[7]) = (state.q4, state.q5, state.q6, state.q7)
        }
    }

    deinit {
        LegacyWipe.bytes(UnsafeMutableRawBufferPointer(start: roundKeys, count: roundKeyWordCount * MemoryLayout<UInt64>.stride))
        roundKeys.deallocate()
    }

    /// Encrypts the four blocks held in `state`.
    @inline(__always)
    func encrypt(_ state: inout LegacyBitslicedState) {
        let keys = UnsafePointer(roundKeys)
        state.addRoundKey(keys)
        // Round r uses the MixColumns variant for r mod 4; the branches depend only on
        // the public round number.
        var round = 1
        while true {
            state.subBytes()
            state.mixColumns1()
            state.addRoundKey(keys + 8 &* round)
            round &+= 1
            if round == roundCount { break }
            state.subBytes()
            state.mixColumns2()
            state.addRoundKey(keys + 8 &* round)
            round &+= 1
            if round == roundCount { break }
            state.subBytes()
            state.mixColumns3()
            state.addRoundKey(keys + 8 &* round)
            round &+= 1
            if round == roundCount { break }
            state.subBytes()
            state.mixColumns0()
            state.addRoundKey(keys + 8 &* round)
            round &+= 1
            if round == roundCount { break }
        }
        state.subBytes()
        // The last round has no MixColumns; it applies ShiftRows^roundCount at once,
        // which is ShiftRows twice for 10 and 14 rounds and nothing for 12.
        if roundCount % 4 == 2 { state.shiftRowsTwice() }
        state.addRoundKey(keys + 8 &* roundCount)
    }

    /// Encrypts one 16-byte block in place (the other three slots carry zeros).
    func encryptBlock(_ block: UnsafeMutableRawPointer) {
        let scratch = LegacyKeystreamScratch()
        let w = scratch.words
        for index in 0..<4 {
            w[index] = UInt32(littleEndian: block.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
        }
        var state = LegacyBitslicedState(words: UnsafePointer(w))
        encrypt(&state)
        state.store(words: w)
        for index in 0..<4 {
            block.storeBytes(of: w[index].littleEndian, toByteOffset: 4 * index, as: UInt32.self)
        }
    }

    /// SubWord of the key schedule, through the same constant-time S-box circuit.
    private static func substituteWord(_ word: UInt32) -> UInt32 {
        var state = LegacyBitslicedState()
        state.q0 = UInt64(word)
        state.transpose()
        state.subBytes()
        state.transpose()
        return UInt32(truncatingIfNeeded: state.q0)
    }

    /// Multiplication by x in GF(2^8), for the round constants (public values).
    private static func doubleInField(_ value: UInt32) -> UInt32 {
        let doubled = value &<< 1
        return (doubled & 0xFF) ^ ((doubled &>> 8) * 0x1B)
    }
}
