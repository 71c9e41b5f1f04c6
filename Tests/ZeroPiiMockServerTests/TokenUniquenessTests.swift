import Foundation
import Testing
import ZeroPiiCrypto
import ZeroPiiTestHelpers

@testable import ZeroPiiMockServer

/// Docs/Protocol.md section 10 at scale: a million values of many forms and scripts, and
/// names in eleven scripts.
struct TokenUniquenessTests {
    /// Letters of eleven scripts, by case where the script has one.
    static let scripts: [(name: String, letters: [Unicode.Scalar])] = [
        ("Latin with diacritics", Array("áàâäãåçéèêëíìîïñóòôöõúùûüýÿßøæœšžčřłđ".unicodeScalars)),
        ("Greek", scalars(0x3B1...0x3C9)),
        ("Cyrillic", scalars(0x430...0x44F)),
        ("Arabic", scalars(0x628...0x64A)),
        ("Hebrew", scalars(0x5D0...0x5EA)),
        ("Devanagari", scalars(0x915...0x939)),
        ("Han", scalars(0x4E00...0x4FFF)),
        ("Hiragana", scalars(0x3041...0x3096)),
        ("Katakana", scalars(0x30A1...0x30FA)),
        ("Hangul", scalars(0xAC00...0xAFFF)),
        ("Thai", scalars(0xE01...0xE2E)),
    ]

    static func scalars(_ range: ClosedRange<UInt32>) -> [Unicode.Scalar] {
        range.compactMap(Unicode.Scalar.init)
    }

    /// A million different values: e-mail addresses, phone numbers in several formats,
    /// integers, decimals, `E` forms, strings of digits and `E`, names in eleven scripts.
    /// Each is made from its number `n`, in one of twelve forms, so they are cheap to make
    /// and all different (the forms cannot produce one another's values).
    static func values(count: Int) -> [String] {
        let digitsAndE = Array("0123456789E".unicodeScalars)
        return (0..<count).map { number -> String in
            let n = number / 12
            switch number % 12 {
            case 0: return "user.\(n)@example.com"
            case 1: return "+1 (\(100 + n % 900)) 555-\(1000 + n / 900)"
            case 2: return "\(100 + n % 900)-\(100 + n / 900 % 900)-\(1000 + n / 810_000)"
            case 3: return "+44 7\(n)"
            case 4: return String(n * 7_919 - 250_000_000)
            case 5: return "\(n / 1000 - 40).\(n % 1000)"
            case 6: return "\(1 + n % 9).\(n / 9 % 1000)E\(n / 9000 - 5)"
            case 7:
                var view = String.UnicodeScalarView()
                var rest = n
                repeat {
                    view.append(digitsAndE[rest % digitsAndE.count])
                    rest /= digitsAndE.count
                } while rest > 0
                return "E" + String(view)
            case 8: return "0\(n)"
            case 9: return "-0.\(n)"
            default:
                let name = n * 2 + number % 12 - 10
                let letters = scripts[name % scripts.count].letters
                var view = String.UnicodeScalarView()
                var rest = name / scripts.count
                repeat {
                    view.append(letters[rest % letters.count])
                    rest /= letters.count
                } while rest > 0
                return String(view) + " " + String(letters[name % letters.count])
            }
        }
    }

    /// Uniqueness is a property of the construction (a permutation per format, numbers
    /// and strings kept apart), whatever the round function; the fast one lets a debug
    /// build check a million values in seconds. The keyed SHA-256 one is checked on
    /// every value of the small domains in FormatPreservingCipherTests.
    @Test(.skippedUnderThreadSanitizer) func aMillionValuesOfEveryFormGetAMillionTokens() {
        let values = Self.values(count: 1_000_000)
        #expect(Set(values).count == values.count)
        let cipher = FormatPreservingCipher(roundFunction: FastRoundFunction(key: 0x5EED))
        let chunks = 4
        let tokenChunks = ConcurrentResults<[String]>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (values.count * chunk / chunks)..<(values.count * (chunk + 1) / chunks)
            tokenChunks.set(chunk, values[range].map(cipher.encrypt))
        }
        let tokens = tokenChunks.all.flatMap { $0 }
        #expect(tokens.count == values.count)
        #expect(Set(tokens).count == values.count)
        #expect(zip(values, tokens).allSatisfy { NumberFormatCheck.isNumber($0) == NumberFormatCheck.isNumber($1) })
        // `-0` is the one member of its format (documented); nothing else is its own token.
        #expect(zip(values, tokens).filter { $0 == $1 }.map(\.0) == [])
    }

    /// Names in eleven scripts, with the vault's own cipher: every token differs from its
    /// name, every letter stays in its script and case, no letter stays in its place in
    /// every name that has it there, and the same name gets the same token again.
    @Test func namesInElevenScriptsStayInTheirScript() {
        let cipher = FormatPreservingCipher.vault(.current, keyByte: 42)
        var generator = SplitMix64(seed: 11)
        for script in Self.scripts {
            #expect(script.letters.allSatisfy { TokenAlphabets.classify($0, in: .readable) != nil })
            var kept: [String: Int] = [:]
            var seen: [String: Int] = [:]
            for _ in 0..<200 {
                var view = String.UnicodeScalarView()
                for _ in 0..<Int.random(in: 2...6, using: &generator) { view.append(script.letters.randomElement(using: &generator)!) }
                let value = String(view)
                let token = cipher.encrypt(value)
                #expect(token != value, "\(script.name)")
                #expect(FormatPreservingCipherTests.keepsFormat(token, of: value), "\(script.name): \(value) → \(token)")
                #expect(cipher.encrypt(value) == token)
                for (position, (original, replaced)) in zip(value.unicodeScalars, token.unicodeScalars).enumerated() {
                    // A character alone in its alphabet (the Arabic tatweel) stays in place.
                    guard let (alphabet, _) = TokenAlphabets.classify(original, in: .readable), alphabet.size > 1 else { continue }
                    let key = "\(position):\(original)"
                    seen[key, default: 0] += 1
                    if original == replaced { kept[key, default: 0] += 1 }
                }
            }
            // A letter that appeared at a place at least 3 times was replaced at least once.
            let alwaysKept = kept.filter { key, count in count == seen[key]! && count >= 3 }
            #expect(alwaysKept.isEmpty, "\(script.name): \(alwaysKept.keys.sorted())")
        }
    }
}

/// Results written by concurrent workers, one slot each.
final class ConcurrentResults<Value>: @unchecked Sendable {
    // Sendable: `slots` is guarded by `lock`.
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }

    var all: [Value] { lock.withLock { slots.compactMap { $0 } } }
}
