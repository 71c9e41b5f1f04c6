/// The AES block cipher (FIPS 197), encryption direction only, bitsliced and
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
/// that is wiped on release. It is never written after the initialiser, so one
/// instance can encrypt for several messages and threads at once; each message brings
/// its own scratch words (``KeystreamScratch``).
final class BitslicedAES: @unchecked Sendable {
    /// 10, 12 or 14.
    let roundCount: Int
    private let roundKeys: UnsafeMutablePointer<UInt64>
    private let roundKeyWordCount: Int
    /// The whole allocation: round keys, then the room the key schedule works in
    /// (wiped as soon as the round keys are made).
    private let memory: UnsafeMutableRawBufferPointer

    /// Expands a 16-, 24- or 32-byte key.
    /// - Throws: ``CryptoError/incorrectKeySize`` for any other length.
    init(key: UnsafeRawBufferPointer) throws {
        let keyWordCount = key.count / 4
        switch key.count {
        case 16: roundCount = 10
        case 24: roundCount = 12
        case 32: roundCount = 14
        default: throw CryptoError.incorrectKeySize
        }
        let scheduleWordCount = 4 * (roundCount + 1)
        roundKeyWordCount = 8 * (roundCount + 1)
        // One allocation for the round keys and the schedule's working room.
        let roundKeyByteCount = roundKeyWordCount * MemoryLayout<UInt64>.stride
        let scheduleByteCount = scheduleWordCount * MemoryLayout<UInt32>.stride
        // Sixteen words for the transposes below, after the schedule.
        let transposeByteCount = KeystreamScratch.batchWordCount * MemoryLayout<UInt32>.stride
        memory = UnsafeMutableRawBufferPointer.allocate(
            byteCount: roundKeyByteCount + scheduleByteCount + transposeByteCount, alignment: 16
        )
        // Not zero-filled: every word is written before it is read.
        roundKeys = memory.baseAddress!.assumingMemoryBound(to: UInt64.self)
        let schedule = (memory.baseAddress! + roundKeyByteCount).assumingMemoryBound(to: UInt32.self)
        let words = (memory.baseAddress! + roundKeyByteCount + scheduleByteCount).assumingMemoryBound(to: UInt32.self)
        defer {
            Wipe.bytes(
                UnsafeMutableRawBufferPointer(start: schedule, count: scheduleByteCount + transposeByteCount), .roundKeys
            )
        }

        for index in 0..<keyWordCount {
            schedule[index] = UInt32(littleEndian: key.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
        }
        // The schedule's branches depend on the word index only, never on key bytes.
        var roundConstant: UInt32 = 1
        var previous = schedule[keyWordCount - 1]
        // `position` is `index % keyWordCount`, kept as a counter: a division per word
        // cost as much as the rest of the schedule.
        var position = 0
        for index in keyWordCount..<scheduleWordCount {
            if position == 0 {
                // RotWord on a little-endian word moves the first byte to the end.
                previous = (previous &<< 24) | (previous &>> 8)
                previous = Self.substituteWord(previous) ^ roundConstant
                roundConstant = Self.doubleInField(roundConstant)
            } else if keyWordCount > 6 && position == 4 {
                previous = Self.substituteWord(previous)
            }
            previous ^= schedule[index &- keyWordCount]
            schedule[index] = previous
            position &+= 1
            if position == keyWordCount { position = 0 }
        }

        // Four round keys at a time go through one transpose, one per block slot; each
        // is then copied into all four slots (the same round key for every block). The
        // state after round r lags r ShiftRows behind (see above), so round key r is
        // stored shifted by ShiftRows^-r; that shift is done on the key's bytes before the
        // transpose, a few masks per word, rather than on the eight bit planes after it.
        let slotBits: UInt64 = 0x1111_1111_1111_1111
        var group = 0
        while group <= roundCount {
            for slot in 0..<BitslicedState.blockCount {
                let round = group + slot
                if round <= roundCount {
                    let power = round > 0 && round < roundCount ? (4 - round % 4) % 4 : 0
                    // A literal power per case lets each call fold to fixed masks and words.
                    switch power {
                    case 1: Self.shiftRows(schedule + 4 * round, power: 1, into: words + 4 * slot)
                    case 2: Self.shiftRows(schedule + 4 * round, power: 2, into: words + 4 * slot)
                    case 3: Self.shiftRows(schedule + 4 * round, power: 3, into: words + 4 * slot)
                    default: (words + 4 * slot).update(from: schedule + 4 * round, count: 4)
                    }
                } else {
                    (words + 4 * slot).update(repeating: 0, count: 4)
                }
            }
            let packed = BitslicedState(words: UnsafePointer(words))
            for slot in 0..<BitslicedState.blockCount where group + slot <= roundCount {
                @inline(__always) func spread(_ word: UInt64) -> UInt64 {
                    ((word &>> UInt64(slot)) & slotBits) &* 0xF
                }
                let destination = roundKeys + 8 * (group + slot)
                (destination[0], destination[1], destination[2], destination[3]) = (
                    spread(packed.q0), spread(packed.q1), spread(packed.q2), spread(packed.q3)
                )
                (destination[4], destination[5], destination[6], destination[7]) = (
                    spread(packed.q4), spread(packed.q5), spread(packed.q6), spread(packed.q7)
                )
            }
            group += BitslicedState.blockCount
        }
    }

    deinit {
        Wipe.bytes(memory, .roundKeys)
        memory.deallocate()
    }

    /// Encrypts the four blocks held in `state`.
    @inline(__always)
    func encrypt(_ state: inout BitslicedState) {
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

    /// Encrypts the four blocks held as sixteen words in `words`, in place.
    @inline(__always)
    func encryptBatch(_ words: UnsafeMutablePointer<UInt32>) {
        var state = BitslicedState(words: UnsafePointer(words))
        encrypt(&state)
        state.store(words: words)
    }

    /// Encrypts one 16-byte block in place (the other three slots carry zeros). For
    /// tests; GCM encrypts whole batches.
    func encryptBlock(_ block: UnsafeMutableRawPointer) {
        KeystreamScratch.withScratch { scratch in
            let w = scratch.words
            for index in 0..<4 {
                w[index] = UInt32(littleEndian: block.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
            }
            encryptBatch(w)
            for index in 0..<4 {
                block.storeBytes(of: w[index].littleEndian, toByteOffset: 4 * index, as: UInt32.self)
            }
        }
    }

    /// ShiftRows applied `power` times to one block given as four column words (byte `r`
    /// of word `c` is the state byte at row `r`, column `c`): row `r` rotates left by
    /// `power * r` columns. The word indices depend on the (public) power only.
    @inline(__always)
    private static func shiftRows(_ columns: UnsafePointer<UInt32>, power: Int, into output: UnsafeMutablePointer<UInt32>) {
        for column in 0..<4 {
            var word: UInt32 = 0
            for row in 0..<4 {
                word |= columns[(column &+ power &* row) & 3] & (0xFF &<< UInt32(8 &* row))
            }
            output[column] = word
        }
    }

    /// SubWord of the key schedule, through the same constant-time S-box circuit.
    ///
    /// The circuit works on bit planes, lane by lane, so one word needs no full
    /// transpose: plane `N` takes bit `N` of each of the four bytes (lanes 0, 8, 16 and
    /// 24), and the output bytes are gathered back from the same lanes. The other lanes
    /// carry zeros and are masked away.
    static func substituteWord(_ word: UInt32) -> UInt32 {
        let lanes: UInt64 = 0x0101_0101
        let input = UInt64(word)
        var state = BitslicedState()
        state.q0 = input & lanes
        state.q1 = (input &>> 1) & lanes
        state.q2 = (input &>> 2) & lanes
        state.q3 = (input &>> 3) & lanes
        state.q4 = (input &>> 4) & lanes
        state.q5 = (input &>> 5) & lanes
        state.q6 = (input &>> 6) & lanes
        state.q7 = (input &>> 7) & lanes
        state.subBytes()
        let output =
            (state.q0 & lanes) | ((state.q1 & lanes) &<< 1) | ((state.q2 & lanes) &<< 2) | ((state.q3 & lanes) &<< 3)
            | ((state.q4 & lanes) &<< 4) | ((state.q5 & lanes) &<< 5) | ((state.q6 & lanes) &<< 6) | ((state.q7 & lanes) &<< 7)
        return UInt32(truncatingIfNeeded: output)
    }

    /// Multiplication by x in GF(2^8), for the round constants (public values).
    private static func doubleInField(_ value: UInt32) -> UInt32 {
        let doubled = value &<< 1
        return (doubled & 0xFF) ^ ((doubled &>> 8) * 0x1B)
    }
}
