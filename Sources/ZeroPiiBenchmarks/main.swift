import Foundation
import ZeroPiiCrypto

/// `zeropii-benchmarks [crypto]`: prints throughput figures for the building blocks.
/// Build with `-c release`; debug builds are an order of magnitude slower.
let arguments = CommandLine.arguments.dropFirst()
let suites = arguments.isEmpty ? ["crypto"] : Array(arguments)

for suite in suites {
    switch suite {
    case "crypto":
        CryptoBenchmarks.run()
    default:
        FileHandle.standardError.write(Data("unknown benchmark suite '\(suite)'; available: crypto\n".utf8))
        exit(2)
    }
}
