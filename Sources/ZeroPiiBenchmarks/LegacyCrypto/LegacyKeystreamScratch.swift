/// Room for one bitsliced batch of blocks as 32-bit words, wiped when released.
///
/// Counter mode needs somewhere to put the encrypted counter blocks before they are
/// XORed into the text. One buffer serves a whole message, so nothing is allocated
/// per block. It is an explicit allocation rather than `withUnsafeTemporaryAllocation`
/// because Swift 6.3.1 in release builds miscompiles a closure passed to that
/// function when the closure ends in a tail call (the error register is not restored,
/// and the caller then acts on a phantom thrown error).
final class LegacyKeystreamScratch {
    static let wordCount = 4 * LegacyBitslicedState.blockCount

    let words: UnsafeMutablePointer<UInt32>

    init() {
        words = UnsafeMutablePointer<UInt32>.allocate(capacity: Self.wordCount)
        words.initialize(repeating: 0, count: Self.wordCount)
    }

    deinit {
        LegacyWipe.bytes(UnsafeMutableRawBufferPointer(start: words, count: Self.wordCount * MemoryLayout<UInt32>.stride))
        words.deallocate()
    }
}
