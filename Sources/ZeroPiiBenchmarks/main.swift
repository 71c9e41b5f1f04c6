import Foundation
import ZeroPiiCrypto

/// `zeropii-benchmarks [crypto] [csv [ROWS]]`: prints figures for the crypto building
/// blocks and for end-to-end CSV tokenization (default 1,000,000 rows).
/// Build with `-c release`; debug builds are an order of magnitude slower.
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty { arguments = ["crypto"] }

while !arguments.isEmpty {
    let suite = arguments.removeFirst()
    switch suite {
    case "crypto":
        CryptoBenchmarks.run()
    case "csv":
        var rows = 1_000_000
        if let first = arguments.first, let count = Int(first) {
            rows = count
            arguments.removeFirst()
        }
        await CSVBenchmark.run(rows: rows)
    default:
        FileHandle.standardError.write(Data("unknown benchmark suite '\(suite)'; available: crypto, csv [ROWS]\n".utf8))
        exit(2)
    }
}
