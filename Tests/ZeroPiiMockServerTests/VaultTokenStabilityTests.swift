import Testing
import ZeroPiiCrypto

@testable import ZeroPiiMockServer

/// The vault's tokens, pinned: a vault file keeps the tokens it answered, so a change to
/// the cipher or its round function that moves any token is a new token function
/// (Docs/Protocol.md section 10), not an optimisation. The values cover each path of the
/// round function: one and two hashes per round, messages that fill one SHA-256 block
/// and several, numbers, single-position formats, and non-Latin alphabets.
struct VaultTokenStabilityTests {
    /// Format 2's cipher with the round key 0x00...0x1F.
    static let cipher = FormatPreservingCipher(roundFunction: KeyedSHA256RoundFunction(key: SymmetricKey(data: (0..<32).map { UInt8($0) })))

    static let pinned: [(value: String, token: String)] = [
        ("user123456@example.com", "wbbq048774@sgqtqpb.cgv"),
        ("+1 (555) 123-4567", "+1 (974) 528-0587"),
        ("a", "o"),
        ("7", "9"),
        ("-12.5E07", "-14.0C73"),
        ("1.7976931348623157E308", "5.1291031011510830E126"),
        ("Ольга Петрова", "Ӯњӣѯџ Ҷиңкѝнҝ"),
        ("王小明", "変櫳狚"),
        ("0000-0000-0000-0000-0000-0000-0000-0000-0000-0000-0000-0000", "9371-4210-4127-2661-9409-0875-9605-6034-5196-4823-5246-8782"),
        ("The quick brown fox jumps over the lazy dog, 42 times, in 2026!", "Pkr tczwa mlrmk frc phxmq tmfx szx pyff ynh, 04 mmfck, le 7961!"),
    ]

    @Test(arguments: pinned.indices)
    func tokensStayWhatTheyWere(index: Int) {
        let (value, token) = Self.pinned[index]
        #expect(Self.cipher.encrypt(value) == token, "\(value)")
    }

    /// Format 3's cipher with the round key 0x00...0x0F.
    static let format3Cipher = FormatPreservingCipher(roundFunction: SipHashRoundFunction(key: SymmetricKey(data: (0..<16).map { UInt8($0) })))

    /// The same values under format 3, which also covers one, two and three blocks of
    /// four words per round, an odd and an even count of source symbols, and a source
    /// half of one symbol.
    static let pinnedFormat3: [(value: String, token: String)] = [
        ("user123456@example.com", "nqhu659119@dcxliib.aql"),
        ("+1 (555) 123-4567", "+5 (313) 329-8311"),
        ("a", "s"),
        ("7", "2"),
        ("-12.5E07", "-24.3V41"),
        ("1.7976931348623157E308", "1.0221091166572521E756"),
        ("Ольга Петрова", "Єѿҽђӥ Ѷҝҙӻюҳӳ"),
        ("王小明", "趓匠郦"),
        ("0000-0000-0000-0000-0000-0000-0000-0000-0000-0000-0000-0000", "8403-3302-4331-0339-5036-6884-4688-0745-4546-5471-5352-8882"),
        ("The quick brown fox jumps over the lazy dog, 42 times, in 2026!", "Aos bjsti eqlfu xee zvhug yhij wkl mkvn ofo, 37 hjwzl, ui 9161!"),
    ]

    @Test(arguments: pinnedFormat3.indices)
    func format3TokensStayWhatTheyWere(index: Int) {
        let (value, token) = Self.pinnedFormat3[index]
        #expect(Self.format3Cipher.encrypt(value) == token, "\(value)")
    }

    /// Format 5's cipher with the vault key of 32 bytes 0x05: format 4's numbers, and
    /// letters within their block (``TokenAlphabets/Edition/readable``).
    static let format5Cipher = FormatPreservingCipher.vault(.readableLetters, keyByte: 5)

    static let pinnedFormat5: [(value: String, token: String)] = [
        ("user123456@example.com", "hczr276283@tjeqaqy.qds"),
        ("+1 (555) 123-4567", "+1 (320) 873-8470"),
        ("1.7976931348623157E308", "4.0388908463335475E295"),
        ("2147483647", "1078955954"),
        ("Ольга Петрова", "Ӛҹѕҟұ Ңңїҕрѣҵ"),
        ("Анна Петрова", "Ѹҵӭӣ Ѧӟѕӿфѹӷ"),
        ("Đặng Thị Hương", "Œṝud Qlṵ Fȇǭnt"),
        ("王小明", "坝瘔錣"),
        ("\u{214E}\u{2184}", "\u{2184}\u{2184}"),
    ]

    @Test(arguments: pinnedFormat5.indices)
    func format5TokensStayWhatTheyWere(index: Int) {
        let (value, token) = Self.pinnedFormat5[index]
        #expect(Self.format5Cipher.encrypt(value) == token, "\(value)")
    }
}
