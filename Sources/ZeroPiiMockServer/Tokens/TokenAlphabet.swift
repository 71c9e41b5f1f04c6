/// One alphabet of ``TokenAlphabets``: its identifier (the table's number, or a flagged
/// window and category for letters newer than the table) and how many members it has.
struct TokenAlphabet: Sendable, Equatable {
    static let unlistedFlag: UInt32 = 0x8000_0000
    static let asciiDigits = TokenAlphabet(identifier: 0, size: 10)
    static let asciiUppercase = TokenAlphabet(identifier: 1, size: 26)
    static let asciiLowercase = TokenAlphabet(identifier: 2, size: 26)

    let identifier: UInt32
    let size: Int
}
