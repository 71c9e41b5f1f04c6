import Testing

@testable import ZeroPiiMockServer

/// The two editions of the token alphabets (``TokenAlphabets/Edition``): in the readable
/// one, which vaults of format 5 use, a letter becomes a letter of its own block, never
/// a rare letter of another block that ordinary fonts do not show; the joined one, which
/// older vaults keep, differs only for the characters alone in their block.
struct TokenAlphabetEditionTests {
    /// The members of `scalar`'s alphabet in `edition`.
    static func members(of scalar: Unicode.Scalar, in edition: TokenAlphabets.Edition) -> [Unicode.Scalar] {
        guard let (alphabet, _) = TokenAlphabets.classify(scalar, in: edition) else { return [] }
        return (0..<alphabet.size).map { TokenAlphabets.scalar(at: $0, of: alphabet, in: edition) }
    }

    /// Letters of the blocks people write in, and each block's range.
    static let letterBlocks: [(letter: Unicode.Scalar, block: ClosedRange<UInt32>)] = [
        ("н", 0x0400...0x04FF), ("Д", 0x0400...0x04FF), ("é", 0x0080...0x00FF), ("É", 0x0080...0x00FF),
        ("ặ", 0x1E00...0x1EFF), ("Ạ", 0x1E00...0x1EFF), ("α", 0x0370...0x03FF), ("ἀ", 0x1F00...0x1FFF),
        ("Ω", 0x0370...0x03FF), ("ґ", 0x0400...0x04FF),
    ]

    @Test(arguments: letterBlocks.indices)
    func aLetterIsReplacedWithinItsBlock(index: Int) {
        let (letter, block) = Self.letterBlocks[index]
        let members = Self.members(of: letter, in: .readable)
        #expect(members.count > 20)
        #expect(members.allSatisfy { block.contains($0.value) }, "\(letter)")
    }

    /// The joined edition is what vaults of formats 2 to 4 answered with: there, `н` may
    /// become U+1D2B and `ặ` U+2184, so their tokens stay as they were.
    @Test func theJoinedEditionKeepsTheLonelyLettersInTheLargestAlphabets() {
        #expect(Self.members(of: "н", in: .joined).contains("\u{1D2B}"))
        #expect(Self.members(of: "ặ", in: .joined).contains("\u{2184}"))
        #expect(Self.members(of: "н", in: .joined).count == Self.members(of: "н", in: .readable).count + 1)
    }

    /// The editions give the same alphabet to every letter or number but the 22 alone in
    /// their block, listed in Docs/TokenAlphabets.md, and to those a different one; both
    /// classify the same scalars.
    @Test func theEditionsDifferOnlyForTheLonelyCharacters() {
        let lonely: Set<UInt32> = [
            0x00B5, 0x0294, 0x0374, 0x037A, 0x0640, 0x08C9, 0x1D2B, 0x1D78, 0x1DBF, 0x2126, 0x214E, 0x2183, 0x2184, 0x2E2F, 0x30FC,
            0xA788, 0xA9CF, 0xAB65, 0x11FB0, 0x16FE3, 0x1B000, 0x1DF0A,
        ]
        var differing = Set<UInt32>()
        for value in UInt32(0x80)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let joined = TokenAlphabets.classify(scalar, in: .joined)
            let readable = TokenAlphabets.classify(scalar, in: .readable)
            #expect((joined == nil) == (readable == nil))
            if let joined, let readable, joined.alphabet.identifier != readable.alphabet.identifier { differing.insert(value) }
        }
        #expect(differing == lonely)
    }

    /// Lonely characters of one script and case form an alphabet of their own: the two
    /// lonely Latin lower-case letters become each other, and a character with no other
    /// of its kind stays in place, as the one-member alphabets always have.
    @Test func lonelyCharactersStayAmongThemselves() {
        #expect(Set(Self.members(of: "\u{214E}", in: .readable)) == ["\u{214E}", "\u{2184}"])
        #expect(Self.members(of: "\u{1D2B}", in: .readable) == ["\u{1D2B}"])
        let cipher = FormatPreservingCipher.vault(.readableLetters, keyByte: 9)
        #expect(cipher.encrypt("\u{214E}") == "\u{2184}" && cipher.encrypt("\u{2184}") == "\u{214E}")
        #expect(cipher.encrypt("\u{1D2B}") == "\u{1D2B}")
    }

    /// Lonely characters of the Common script are marks many writing systems share, not
    /// letters of one: each stays in place. The katakana length mark in Japanese names
    /// stays a length mark, and the Arabic tatweel stays a tatweel.
    @Test func lonelyCommonCharactersStayInPlace() {
        for mark: Unicode.Scalar in ["\u{30FC}", "\u{0640}", "\u{0374}", "\u{A9CF}"] {
            #expect(Self.members(of: mark, in: .readable) == [mark])
        }
        for keyByte in UInt8(1)...20 {
            let cipher = FormatPreservingCipher.vault(.readableLetters, keyByte: keyByte)
            for name in ["ケーキ", "ルーシー", "メアリー"] {
                let token = Array(cipher.encrypt(name).unicodeScalars)
                for (original, replaced) in zip(name.unicodeScalars, token) {
                    if original == "\u{30FC}" {
                        #expect(replaced == original, "\(name)")
                    } else {
                        #expect((0x30A0...0x30FF).contains(replaced.value), "\(name)")
                    }
                }
            }
        }
    }

    /// Names through a format 5 vault's cipher under fifty keys: every letter of the
    /// token is in the block of the letter it replaced, and differs from it somewhere.
    @Test func namesKeepEveryLetterInItsBlock() {
        let blocks: [ClosedRange<UInt32>] = [0x0041...0x007A, 0x0080...0x00FF, 0x0100...0x017F, 0x0180...0x024F, 0x0400...0x04FF, 0x1E00...0x1EFF]
        let names = ["Анна Петрова", "Đặng Thị Hương", "José Müller", "Łukasz Ørsted", "Nguyễn Văn Ước", "ЁЖИК Ґанна"]
        for keyByte in UInt8(1)...50 {
            let cipher = FormatPreservingCipher.vault(.readableLetters, keyByte: keyByte)
            for name in names {
                let token = cipher.encrypt(name)
                #expect(token != name)
                for (original, replaced) in zip(name.unicodeScalars, token.unicodeScalars) {
                    let block = blocks.first { $0.contains(original.value) }
                    #expect(block == nil ? original == replaced : block!.contains(replaced.value), "\(name) -> \(token)")
                }
            }
        }
    }
}
