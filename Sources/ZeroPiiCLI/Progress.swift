import Foundation

/// Rows read, rate, time left and a bar on standard error, when it is a terminal and the
/// rows go elsewhere (a bar between rows on one terminal would mangle both).
final class Progress {
    private let enabled: Bool
    private let totalBytes: Int?
    /// What is counted: "row" or "line".
    private let unit: String
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var drawn = false

    init(enabled: Bool, totalBytes: Int?, unit: String = "row") {
        self.enabled = enabled
        self.totalBytes = totalBytes
        self.unit = unit
    }

    /// A bar for a run that writes `output` and reads `input`, drawn unless `--quiet`,
    /// standard error is no terminal, the output is one, or someone types the input.
    convenience init(quiet: Bool, input: DecodedInput, output: OutputFile, unit: String = "row") {
        let inputIsTyped = input.file?.isTerminal ?? false
        self.init(
            enabled: !quiet && Console.errorIsTerminal && !output.isTerminal && !inputIsTyped, totalBytes: input.file?.size, unit: unit)
    }

    func update(rows: Int, bytes: Int) {
        guard enabled, Date().timeIntervalSince(lastDrawn) >= 0.25 else { return }
        lastDrawn = Date()
        drawn = true
        let elapsed = max(0.001, Date().timeIntervalSince(started))
        var line = "\r" + RunSummary.count(rows, unit).leftPadded(to: 14)
        if elapsed >= RunSummary.shortestRunWithARate {
            line += String(format: "  %8.0f \(unit)s/s", Double(rows) / elapsed)
        }
        if let totalBytes, totalBytes > 0 {
            let fraction = min(1, Double(bytes) / Double(totalBytes))
            let width = 24
            let filled = Int(fraction * Double(width))
            let left = fraction > 0 ? elapsed / fraction - elapsed : 0
            line += "  [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
            line += String(format: " %3.0f%%  %4.0f s left", fraction * 100, left)
        }
        Console.errorText(line)
    }

    func finish() {
        guard enabled, drawn else { return }
        Console.errorText("\r\u{1B}[K")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
