import Foundation
import ZeroPiiCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// End to end: a generated CSV of `rows` rows and three columns, two of them
/// tokenized, through `zeropii tokenize` in this process against the embedded server
/// (a fresh vault; every email and, up to ten million rows, every phone number is
/// distinct, so every value is new). Prints rows per second, the peak resident memory
/// of the whole process, the bytes the process wrote while tokenizing, and the sizes of
/// the vault's files.
///
/// Given several row counts, it runs each in turn in one process and prints each one's
/// rows per second over the first's, so that how the cost per row changes with the
/// vault's size is a ratio measured side by side, not absolute times from runs on a
/// machine whose load differs.
enum CSVBenchmark {
    struct Result {
        let rows: Int
        let rowsPerSecond: Double
    }

    static func run(rowCounts: [Int]) async {
        var results: [Result] = []
        for rows in rowCounts {
            results.append(await run(rows: rows))
        }
        guard results.count > 1 else { return }
        print("CSV tokenization, rows/s against the first size (same run)")
        for result in results {
            print(
                String(
                    format: "  %d rows: %.0f rows/s, %.2f of %d rows' rate", result.rows, result.rowsPerSecond,
                    result.rowsPerSecond / results[0].rowsPerSecond, results[0].rows))
        }
    }

    static func run(rows: Int) async -> Result {
        let directory = NSTemporaryDirectory() + "zeropii-bench-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/input.csv"
        _ = FileManager.default.createFile(atPath: input, contents: nil)
        let handle = FileHandle(forWritingAtPath: input)!
        var chunk = "id,email,phone\n"
        for row in 0..<rows {
            chunk += "\(row),user\(row)@example.com,+1 (555) \(String(format: "%03d", row / 10_000 % 1000))-\(String(format: "%04d", row % 10_000))\n"
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        handle.write(Data(chunk.utf8))
        handle.closeFile()

        let writtenBefore = bytesWritten()
        let started = Date()
        let status = await CommandLineInterface.run([
            "tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", input, "--columns", "email,phone",
            "--output", directory + "/output.csv",
        ])
        let elapsed = Date().timeIntervalSince(started)
        let written = bytesWritten().map { $0 - (writtenBefore ?? 0) }
        let peakMegabytes = ResidentMemory.peakMegabytes()
        print("CSV tokenization, \(rows) rows, 3 columns, 2 tokenized, embedded server, fresh vault")
        print(
            String(
                format: "  exit status %d, %.1f s, %.0f rows/s, %.0f values/s, peak RSS %.0f MB (of the process so far)", status, elapsed,
                Double(rows) / elapsed, 2 * Double(rows) / elapsed, peakMegabytes))
        let data = directory + "/data"
        var vaultBytes = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: data).sorted()) ?? [] {
            var status = stat()
            guard stat(data + "/" + name, &status) == 0 else { continue }
            vaultBytes += Int(status.st_size)
            let sizes = String(
                format: "%.1f MB (%.1f MB on disk)", Double(status.st_size) / 1_048_576, Double(status.st_blocks) * 512 / 1_048_576)
            print("  \(name): \(sizes)")
        }
        if let written {
            let output = (try? FileManager.default.attributesOfItem(atPath: directory + "/output.csv")[.size] as? Int) ?? 0
            print(
                String(
                    format: "  written while tokenizing: %.1f MB; less the output CSV (%.1f MB): %.1f MB, %.2f × the vault's files (%.1f MB)",
                    Double(written) / 1_048_576, Double(output) / 1_048_576, Double(written - output) / 1_048_576,
                    Double(written - output) / Double(max(1, vaultBytes)), Double(vaultBytes) / 1_048_576))
        }
        return Result(rows: rows, rowsPerSecond: Double(rows) / elapsed)
    }

    /// The bytes this process has caused to be written to storage (`write_bytes` of
    /// `/proc/self/io`: counted when a page of a file is dirtied, so a page written again
    /// after it reached the disk counts again); nil where there is no such count.
    static func bytesWritten() -> Int? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
            return Int(line.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
        #else
        return nil
        #endif
    }
}
