import Foundation
import ZeroPiiCrypto

/// The token function a vault's tokens come from, and the layout of its records, named by
/// the version byte in its data file's header (`ZPVAULT2` to `ZPVAULT5`).
///
/// A vault answers the same token for a value for as long as it lives, so a vault keeps
/// the format it was created with; new vaults get ``current``. Every format is the
/// cipher of Docs/Protocol.md section 10 (``FormatPreservingCipher``); they differ in its
/// round function (keyed from the vault's key through HKDF with a label of their own),
/// in how numbers and lonely letters are treated, and in whether a record's header has
/// a checksum of its own.
package enum VaultFormat: UInt8, Sendable, CaseIterable {
    /// Format 2: keyed SHA-256 rounds (``KeyedSHA256RoundFunction``), the vaults created
    /// before format 3.
    case keyedSHA256Rounds = 0x32
    /// Format 3: SipHash-2-4-128 rounds (``SipHashRoundFunction``), several times faster
    /// per value.
    case sipHashRounds = 0x33
    /// Format 4: format 3's rounds and key, and a number's token stays within the types
    /// its value fits (``NumberTypeFit``): an `Int32` gets an `Int32`, a finite `Double`
    /// a finite `Double` that Java writes the same way. Strings get format 3's tokens.
    case typedNumbers = 0x34
    /// Format 5: format 4's tokens, except that a letter alone in its block among the
    /// letters of its script and case no longer joins the largest alphabet of them
    /// (``TokenAlphabets/Edition/readable``), so `н` never becomes `ᴫ`; and each record's
    /// header carries a checksum of its own, so damage to a record's count is never
    /// taken for the torn tail of a crash (``VaultLogReader``).
    case readableLetters = 0x35

    /// The format of every new vault.
    package static let current = VaultFormat.readableLetters

    /// Whether a record starts with its count and a CRC-32 of that count (format 5 on),
    /// rather than with the count alone.
    var recordHeadersAreChecked: Bool { rawValue >= VaultFormat.readableLetters.rawValue }

    /// The edition of the token alphabets this format's strings are tokenized within.
    var alphabets: TokenAlphabets.Edition { rawValue >= VaultFormat.readableLetters.rawValue ? .readable : .joined }

    /// The bytes of the data file's header that its CRC-32 covers. Format 3's covers the
    /// magic and the version too, so that a flipped bit there cannot switch a vault to
    /// another token function unnoticed; format 2's covered the key alone.
    var checksummedHeaderBytes: Range<Int> {
        switch self {
        case .keyedSHA256Rounds: return 8..<40
        case .sipHashRounds, .typedNumbers, .readableLetters: return 0..<40
        }
    }

    /// The header's version character, for messages.
    package var versionText: String { String(decoding: [rawValue], as: UTF8.self) }

    /// The format-preserving cipher of a vault of this format whose key is `vaultKey`.
    func cipher(vaultKey: SymmetricKey) throws -> FormatPreservingCipher {
        switch self {
        case .keyedSHA256Rounds:
            let roundKey = try HKDF<SHA256>.deriveKey(
                inputKeyMaterial: vaultKey, info: Data("zeropii-mock tokens".utf8), outputByteCount: 32)
            return FormatPreservingCipher(roundFunction: KeyedSHA256RoundFunction(key: roundKey))
        case .sipHashRounds, .typedNumbers, .readableLetters:
            // Formats 4 and 5 keep format 3's key: only numbers whose first step leaves
            // their class, and strings with a lonely letter or a letter of an alphabet one
            // joined, get other tokens.
            let roundKey = try HKDF<SHA256>.deriveKey(
                inputKeyMaterial: vaultKey, info: Data("zeropii-mock tokens, format 3".utf8), outputByteCount: 16)
            return FormatPreservingCipher(
                roundFunction: SipHashRoundFunction(key: roundKey), numbersKeepTheirTypes: self != .sipHashRounds,
                alphabets: alphabets)
        }
    }
}
