/// The keyed pseudorandom function inside ``FormatPreservingCipher``'s Feistel rounds.
///
/// The cipher is a permutation of each format's values whatever this function returns,
/// so uniqueness and the absence of fixed points do not depend on it; it only decides
/// which permutation a key selects. Tests that check those properties over millions of
/// values may therefore run the cipher with a fast function of their own.
protocol FeistelRoundFunction: Sendable {
    /// A 128-bit digest of a value's format, which keys every round for that format.
    func tweak(for format: [UInt8]) -> FormatTweak

    /// Fills `words` with pseudorandom 32-bit words for one round: from its number, the
    /// format's tweak and the symbols of the half that the round reads.
    func words(round: Int, tweak: FormatTweak, source: UnsafeBufferPointer<Int>, into words: UnsafeMutableBufferPointer<UInt32>)
}

/// What ``FeistelRoundFunction/tweak(for:)`` derives from a format: 16 bytes, `high`
/// then `low`, each big-endian.
struct FormatTweak: Sendable, Equatable {
    let high: UInt64
    let low: UInt64
}
