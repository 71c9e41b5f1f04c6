import Foundation
import ZeroPiiCrypto

/// `zeropii-benchmarks [crypto] [envelope [BYTES...]] [csv [ROWS...]] [sdk] [sdk-cpu [single|batch]] [vault] [transport [CALLS]]`: prints figures
/// for the crypto building blocks, for the v1 envelope per request (beside OpenSSL's, in
/// the same run), for end-to-end CSV tokenization (default 1,000,000 rows; several row
/// counts are run in turn and compared), for the SDK's own cost per request and
/// coalescing (`SDKBenchmark`; `sdk-cpu` is its part (a) alone, to run under `perf record`,
/// and `sdk-cpu single` or `sdk-cpu batch` one row of it), for the mock server's work per value (`VaultBenchmark`),
/// and for the HTTP transports side by side (`TransportBenchmark`).
/// Build with `-c release`; debug builds are an order of magnitude slower.
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty { arguments = ["crypto"] }

while !arguments.isEmpty {
    let suite = arguments.removeFirst()
    switch suite {
    case "crypto":
        CryptoBenchmarks.run()
    case "envelope":
        var sizes: [Int] = []
        while let first = arguments.first, let size = Int(first) {
            sizes.append(size)
            arguments.removeFirst()
        }
        EnvelopeBenchmark.run(sizes: sizes.isEmpty ? EnvelopeBenchmark.sizes : sizes)
    case "csv":
        var rowCounts: [Int] = []
        while let first = arguments.first, let count = Int(first) {
            rowCounts.append(count)
            arguments.removeFirst()
        }
        await CSVBenchmark.run(rowCounts: rowCounts.isEmpty ? [1_000_000] : rowCounts)
    case "sdk":
        await SDKBenchmark.run()
    case "sdk-cpu":
        var parts = SDKBenchmark.ClientCPUParts.both
        if let first = arguments.first, let part = SDKBenchmark.ClientCPUParts(rawValue: first) {
            parts = part
            arguments.removeFirst()
        }
        await SDKBenchmark.clientCPU(parts)
    case "vault":
        VaultBenchmark.run()
    case "transport":
        var calls = 100_000
        if let first = arguments.first, let count = Int(first) {
            calls = count
            arguments.removeFirst()
        }
        await TransportBenchmark.run(soakCalls: calls)
    case "transport-child" where arguments.count >= 4:
        let (name, part, url, calls) = (arguments[0], arguments[1], URL(string: arguments[2])!, Int(arguments[3]) ?? 100_000)
        arguments.removeFirst(4)
        await TransportBenchmark.runChild(name: name, part: part, url: url, soakCalls: calls)
    default:
        FileHandle.standardError.write(
            Data(
                "unknown benchmark suite '\(suite)'; available: crypto, envelope [BYTES...], csv [ROWS...], sdk, sdk-cpu [single|batch], vault, transport [CALLS]\n"
                    .utf8
            ))
        exit(2)
    }
}
