import Foundation
import Testing
import ZeroPiiWire

/// `WireValueFormat` against a real JVM's `Float.toString` and `Double.toString`
/// (OpenJDK 17, the algorithm Android ships): chosen edge values through the debug build
/// the other tests use, and millions more (2,000,000 random bit patterns per type, every
/// `Float` integer up to 2^24, the 400,000 doubles around 2^53) through an optimised
/// build of the same sources, compared block by block and then value by value where a
/// block differs. A failure names the first differing value by its bits.
///
/// Skipped without a JDK up to 18 on PATH; `.ci/run` sets `ZEROPII_JAVA=required`, which
/// makes that a failure.
@Suite(.enabled(if: JavaNumberReference.shouldRun, "no JDK 9–18 (javac, java) and swiftc on PATH; set ZEROPII_JAVA=required to fail instead"))
struct WireValueFormatJavaTests {
    static let randomCount = 2_000_000
    static let block = 4096

    @Test func chosenFloatsMatchJava() async throws {
        let reference = try await JavaNumberReference.shared.value
        let patterns = DifferentialNumbers.chosenFloats()
        let java = try await reference.javaStrings(.float, bits: DifferentialNumbers.data(patterns))
        try #require(java.count == patterns.count)
        let firstDifference = patterns.indices.first { WireValueFormat.string(Float(bitPattern: patterns[$0]))?[...] != java[$0] }
        #expect(firstDifference == nil, "\(describe(firstDifference.map { patterns[$0] }, java: firstDifference.map { java[$0] }))")
        #expect(patterns.count > 80_000)
    }

    @Test func chosenDoublesMatchJava() async throws {
        let reference = try await JavaNumberReference.shared.value
        let patterns = DifferentialNumbers.chosenDoubles()
        let java = try await reference.javaStrings(.double, bits: DifferentialNumbers.data(patterns))
        try #require(java.count == patterns.count)
        let firstDifference = patterns.indices.first { WireValueFormat.string(Double(bitPattern: patterns[$0]))?[...] != java[$0] }
        #expect(firstDifference == nil, "\(describe(firstDifference.map { patterns[$0] }, java: firstDifference.map { java[$0] }))")
        #expect(patterns.count > 80_000)
    }

    @Test func millionsOfFloatsMatchJava() async throws {
        let reference = try await JavaNumberReference.shared.value
        let patterns = DifferentialNumbers.chosenFloats() + DifferentialNumbers.bulkFloats(randomCount: Self.randomCount)
        let difference = try await firstDifference(in: patterns, kind: .float, reference: reference)
        #expect(difference == nil, "\(difference ?? "")")
        #expect(patterns.count > 18_000_000)
    }

    @Test func millionsOfDoublesMatchJava() async throws {
        let reference = try await JavaNumberReference.shared.value
        let patterns = DifferentialNumbers.chosenDoubles() + DifferentialNumbers.bulkDoubles(randomCount: Self.randomCount)
        let difference = try await firstDifference(in: patterns, kind: .double, reference: reference)
        #expect(difference == nil, "\(difference ?? "")")
        #expect(patterns.count > 2_400_000)
    }

    /// The check can fail: a value whose JDK 17 string is not the shortest one, which
    /// the Swift side would get wrong if it still wrote the shortest digits.
    @Test func javaDisagreesWithShortestDigitsWhereExpected() async throws {
        let reference = try await JavaNumberReference.shared.value
        let java = try await reference.javaStrings(.double, bits: DifferentialNumbers.data([1e23.bitPattern]))
        #expect(java == ["9.999999999999999E22"])
        #expect(1e23.description == "1e+23")
    }

    /// Compares block hashes from both programs, then the strings of the first block
    /// whose hashes differ.
    private func firstDifference<Pattern: FixedWidthInteger>(
        in patterns: [Pattern], kind: JavaNumberReference.Kind, reference: JavaNumberReference
    ) async throws -> String? {
        let hashes = try await reference.blockHashes(kind, bits: DifferentialNumbers.data(patterns), block: Self.block)
        let blocks = (patterns.count + Self.block - 1) / Self.block
        guard hashes.java.count == blocks, hashes.swift.count == blocks else {
            return "expected \(blocks) block hashes, got \(hashes.java.count) from Java and \(hashes.swift.count) from Swift"
        }
        guard let block = hashes.java.indices.first(where: { hashes.java[$0] != hashes.swift[$0] }) else { return nil }
        let slice = Array(patterns[(block * Self.block)..<min(patterns.count, (block + 1) * Self.block)])
        let java = try await reference.javaStrings(kind, bits: DifferentialNumbers.data(slice))
        let swift = try await reference.swiftStrings(kind, bits: DifferentialNumbers.data(slice))
        guard let index = slice.indices.first(where: { java[$0] != swift[$0] }) else {
            return "block \(block) hashes differ but its strings agree"
        }
        return "\(kind.rawValue) 0x\(String(slice[index], radix: 16)): Java 17 wrote \"\(java[index])\", WireValueFormat (-O) \"\(swift[index])\""
    }

    private func describe<Pattern: FixedWidthInteger>(_ pattern: Pattern?, java: Substring?) -> String {
        guard let pattern, let java else { return "" }
        let swift =
            Pattern.bitWidth == 32
            ? WireValueFormat.string(Float(bitPattern: UInt32(truncatingIfNeeded: pattern)))
            : WireValueFormat.string(Double(bitPattern: UInt64(truncatingIfNeeded: pattern)))
        return "bits 0x\(String(pattern, radix: 16)): Java 17 wrote \"\(java)\", WireValueFormat \"\(swift ?? "nil")\""
    }
}
