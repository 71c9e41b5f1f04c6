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
/// of the whole process, and the sizes of the vault's files.
enum CSVBenchmark {
    static func run(rows: Int) async {
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

        let started = Date()
        let status = await CommandLineInterface.run([
            "tokenize", "--quiet", "--data-dir", directory + "/data", "--csv", input, "--columns", "email,phone",
            "--output", directory + "/output.csv",
        ])
        let elapsed = Date().timeIntervalSince(started)
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        #if os(Linux)
        let peakMegabytes = Double(usage.ru_maxrss) / 1024
        #else
        let peakMegabytes = Double(usage.ru_maxrss) / 1_048_576
        #endif
        print("CSV tokenization, \(rows) rows, 3 columns, 2 tokenized, embedded server, fresh vault")
        print(
            String(
                format: "  exit status %d, %.1f s, %.0f rows/s, %.0f values/s, peak RSS %.0f MB", status, elapsed, Double(rows) / elapsed,
                2 * Double(rows) / elapsed, peakMegabytes))
        let data = directory + "/data"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: data).sorted()) ?? [] {
            var status = stat()
            guard stat(data + "/" + name, &status) == 0 else { continue }
            let sizes = String(
                format: "%.1f MB (%.1f MB on disk)", Double(status.st_size) / 1_048_576, Double(status.st_blocks) * 512 / 1_048_576)
            print("  \(name): \(sizes)")
        }
    }
}
