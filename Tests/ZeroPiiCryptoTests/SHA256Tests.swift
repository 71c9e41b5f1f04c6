import Foundation
import Testing
import ZeroPiiCrypto
import ZeroPiiTestHelpers

struct SHA256Tests {
    /// The examples of FIPS 180-4 (via the NIST example documents) plus the empty message.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func publishedExamples(message: String, expected: String) {
        #expect([UInt8](SHA256.hash(data: Data(message.utf8))).hex == expected)
    }

    @Test func oneMillionLetterA() {
        let digest = SHA256.hash(data: Data(repeating: 0x61, count: 1_000_000))
        #expect([UInt8](digest).hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length from 0 to 300 bytes (one to six blocks, each padding shape): the
    /// digests of all 301 prefixes of a fixed pattern, hashed together, against the
    /// same computed by Python's `hashlib` (OpenSSL):
    /// `sha256(b"".join(sha256(p[:n]).digest() for n in range(301)))` with
    /// `p[i] = (31 * i + 7) & 0xFF`.
    @Test func everyLengthUpTo300MatchesOpenSSL() {
        let pattern = Data((0..<300).map { UInt8(truncatingIfNeeded: 31 &* $0 &+ 7) })
        var digests = Data()
        for length in 0...300 {
            digests.append(contentsOf: SHA256.hash(data: pattern.prefix(length)))
        }
        #expect([UInt8](SHA256.hash(data: digests)).hex == "78f25692e2f4dd74482ac3dcf4f505a7c278fa279588b764b99a497144bcd49c")
    }

    /// Feeding the same bytes in pieces of every size gives the one-shot digest; the
    /// lengths around 55, 56 and 64 are where the padding changes shape.
    @Test func incrementalUpdatesMatchOneShot() {
        var generator = SplitMix64(seed: 1)
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000] {
            let message = generator.bytes(length)
            let expected = SHA256.hash(data: message)
            for pieceSize in [1, 3, 17, 63, 64, 65] {
                var hasher = SHA256()
                var offset = 0
                while offset < length {
                    let end = min(length, offset + pieceSize)
                    hasher.update(data: message[offset..<end])
                    offset = end
                }
                #expect(hasher.finalize() == expected, "length \(length), pieces of \(pieceSize)")
            }
        }
    }

    @Test func finalizeLeavesTheHasherUsable() {
        var hasher = SHA256()
        hasher.update(data: Data("ab".utf8))
        _ = hasher.finalize()
        hasher.update(data: Data("c".utf8))
        #expect(hasher.finalize() == SHA256.hash(data: Data("abc".utf8)))
    }

    @Test func digestsCompareByValueAndHideTheirBytes() {
        let digest = SHA256.hash(data: Data("abc".utf8))
        #expect(digest == SHA256.hash(data: Data("abc".utf8)))
        #expect(digest != SHA256.hash(data: Data("abd".utf8)))
        #expect(SHA256Digest.byteCount == 32)
        #expect(!digest.description.contains("ba7816bf"))
    }
}
