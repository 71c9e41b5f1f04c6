import Foundation

/// The Swift side of the number-format differential test, with the same modes and
/// output as Scripts/java/JavaNumberStrings.java (see there), from `WireValueFormat`.
///
/// It is compiled with `-O` together with the sources of Sources/ZeroPiiWire/Numbers into
/// one module (hence no `import ZeroPiiWire`), by WireValueFormatJavaTests and by
/// Scripts/float-sweep.sh, so millions of values take seconds rather than the minutes a
/// debug build would need.
@main
enum SwiftNumberStrings {
    static func main() throws {
        let arguments = CommandLine.arguments
        func number(_ index: Int) -> UInt64 {
            let text = arguments[index]
            return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16)! : UInt64(text)!
        }
        var output = ""
        switch arguments[1] {
        case "strings":
            let texts = try formatted(isFloat: arguments[2] == "float", bitsPath: arguments[3])
            for text in texts { output += text + "\n" }
            try output.write(toFile: arguments[4], atomically: false, encoding: .utf8)
        case "hashes":
            let texts = try formatted(isFloat: arguments[2] == "float", bitsPath: arguments[3])
            let block = Int(arguments[4])!
            for start in stride(from: 0, to: texts.count, by: block) {
                var hash = fnvOffset
                for text in texts[start..<min(texts.count, start + block)] { hash = fnv(hash, text) }
                output += String(hash, radix: 16) + "\n"
            }
            try output.write(toFile: arguments[5], atomically: false, encoding: .utf8)
        case "sweep":
            let (first, end, block) = (number(2), number(3), number(4))
            var start = first
            while start < end {
                var hash = fnvOffset
                for pattern in start..<min(end, start + block) {
                    guard let text = WireValueFormat.string(Float(bitPattern: UInt32(truncatingIfNeeded: pattern))) else { continue }
                    hash = fnv(hash, text)
                }
                output += String(start, radix: 16) + " " + String(hash, radix: 16) + "\n"
                start += block
            }
            try output.write(toFile: arguments[5], atomically: false, encoding: .utf8)
        case "range":
            for pattern in number(2)..<number(3) {
                guard let text = WireValueFormat.string(Float(bitPattern: UInt32(truncatingIfNeeded: pattern))) else { continue }
                output += String(pattern, radix: 16) + " " + text + "\n"
            }
            try output.write(toFile: arguments[4], atomically: false, encoding: .utf8)
        default:
            fatalError("SwiftNumberStrings: unknown mode \(arguments[1])")
        }
    }

    /// `WireValueFormat`'s text for each little-endian bit pattern in the file; NaN and
    /// the infinities (which it rejects) come out as `-`.
    static func formatted(isFloat: Bool, bitsPath: String) throws -> [String] {
        let bits = try Data(contentsOf: URL(fileURLWithPath: bitsPath))
        return bits.withUnsafeBytes { raw in
            if isFloat {
                return (0..<raw.count / 4).map { index in
                    WireValueFormat.string(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))) ?? "-"
                }
            }
            return (0..<raw.count / 8).map { index in
                WireValueFormat.string(Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))) ?? "-"
            }
        }
    }

    static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325

    static func fnv(_ start: UInt64, _ text: String) -> UInt64 {
        var hash = start
        for character in text.utf8 { hash = (hash ^ UInt64(character)) &* 0x100_0000_01b3 }
        return (hash ^ 10) &* 0x100_0000_01b3
    }
}
