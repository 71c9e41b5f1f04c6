import Foundation
import ZeroPiiMockServer

/// The mock server's own work per value, which bounds `zeropii tokenize`'s rows per
/// second: the token of one value (the format-preserving cipher, Docs/Protocol.md section
/// 10) for each kind of value the CSV benchmark and apps send, and `tokenize` of a batch
/// of 1,000 new values in a vault in memory (tokens, fingerprints, the index). Thread
/// CPU time, median of five rounds, so neighbours on a shared machine do not count.
enum VaultBenchmark {
    static let samples: [(name: String, value: String)] = [
        ("email, 22 characters", "user123456@example.com"),
        ("phone, +1 (555) 123-4567", "+1 (555) 123-4567"),
        ("number, 10 digits", "4111111111"),
        ("Cyrillic name, 13 characters", "Ольга Петрова"),
        ("text, 63 characters", "The quick brown fox jumps over the lazy dog, 42 times, in 2026!"),
    ]

    static func run() {
        print("Vault work per value (thread CPU, median of 5 rounds)")
        print(
            "  " + "value".padding(toLength: 40, withPad: " ", startingAt: 0)
                + VaultFormat.allCases.map { "format \($0.versionText)" }.joined(separator: "    "))
        let vaults = VaultFormat.allCases.map { TokenVault(inMemoryWith: $0) }
        for (name, value) in samples {
            let figures = vaults.map { vault in medianMicroseconds(iterations: 2_000) { _ in _ = vault.token(for: value) } }
            print(
                "  " + "token of \(name)".padding(toLength: 40, withPad: " ", startingAt: 0)
                    + figures.map { String(format: "%7.2f µs", $0) }.joined(separator: "  "))
        }
        var next = 0
        let perBatch = vaults.map { vault in
            medianMicroseconds(iterations: 20) { _ in
                let values = (0..<1_000).map { offset in "user\(next + offset)@example.com" }
                next += 1_000
                _ = try? vault.tokenize(values)
            }
        }
        print(
            "  " + "tokenize of 1,000 new emails, per value".padding(toLength: 40, withPad: " ", startingAt: 0)
                + perBatch.map { String(format: "%7.2f µs", $0 / 1_000) }.joined(separator: "  "))
    }

    /// The median over five rounds of the thread CPU time per run of `body`.
    private static func medianMicroseconds(iterations: Int, _ body: (Int) -> Void) -> Double {
        for iteration in 0..<max(1, iterations / 10) { body(iteration) }
        var rounds: [Double] = []
        for _ in 0..<5 {
            let start = BenchmarkClock.threadCPUSeconds()
            for iteration in 0..<iterations { body(iteration) }
            rounds.append((BenchmarkClock.threadCPUSeconds() - start) / Double(iterations) * 1e6)
        }
        return rounds.sorted()[2]
    }
}
