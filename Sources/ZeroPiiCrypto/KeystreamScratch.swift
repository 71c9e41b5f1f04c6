/// Room for one bitsliced batch of blocks as 32-bit words, plus the tag mask E(J0).
///
/// Counter mode needs somewhere to put the encrypted counter blocks before they are
/// XORed into the text. One buffer serves a whole message (the first batch, which
/// also yields H and E(J0), and every later one), so nothing is allocated per block.
/// Each message has its own, on the stack, so one ``BitslicedAES`` can serve several
/// messages at once; it is wiped when the message is done. (It is a tuple rather than
/// `withUnsafeTemporaryAllocation` because Swift 6.3.1 in release builds miscompiles
/// a closure passed to that function when the closure ends in a tail call: the error
/// register is not restored, and the caller then acts on a phantom thrown error.)
struct KeystreamScratch {
    /// Words of one batch: block `i` is words `4i ..< 4i + 4`.
    static let batchWordCount = 4 * BitslicedState.blockCount
    static let wordCount = batchWordCount + 4

    /// The batch, in the cipher's little-endian word order.
    let words: UnsafeMutablePointer<UInt32>
    /// E(J0), the mask of the tag, kept apart from the batch so later batches do not overwrite it.
    var tagMask: UnsafeMutablePointer<UInt32> { words + Self.batchWordCount }

    /// Calls `body` with zeroed scratch words on the stack, and wipes them afterwards.
    @inline(__always)
    static func withScratch<Result>(_ body: (KeystreamScratch) throws -> Result) rethrows -> Result {
        // Twenty 32-bit words as ten 64-bit ones, 8-byte aligned.
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )
        defer { Wipe.value(&storage, .keystream) }
        return try withUnsafeMutableBytes(of: &storage) { bytes in
            try body(KeystreamScratch(words: bytes.baseAddress!.bindMemory(to: UInt32.self, capacity: wordCount)))
        }
    }
}
