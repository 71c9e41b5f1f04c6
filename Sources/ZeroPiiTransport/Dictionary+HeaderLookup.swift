import Foundation

extension Dictionary where Key == String, Value == String {
    /// The value stored under `name`, compared without regard to ASCII case, as HTTP
    /// header names are (they are ASCII tokens, RFC 9110 section 5.1). Compared on the
    /// UTF-8 bytes: Foundation's `caseInsensitiveCompare` goes through `NSString` and a
    /// locale, which cost more than the rest of a response's header handling.
    func value(forHeader name: String) -> String? {
        first { Self.headerNamesMatch($0.key, name) }?.value
    }

    /// Whether two header names are equal when ASCII letters are folded to lower case;
    /// other bytes must be equal as they are.
    static func headerNamesMatch(_ first: String, _ second: String) -> Bool {
        var first = first
        var second = second
        return first.withUTF8 { firstBytes in
            second.withUTF8 { secondBytes in
                guard firstBytes.count == secondBytes.count else { return false }
                for (a, b) in zip(firstBytes, secondBytes) where a != b {
                    guard lowercased(a) == lowercased(b) else { return false }
                }
                return true
            }
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
