import Foundation

/// Rows done, rate, time left and a bar on standard error, when it is a terminal.
final class Progress {
    private let enabled: Bool
    private let totalBytes: Int?
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var drawn = false

    init(enabled: Bool, totalBytes: Int?) {
        self.enabled = enabled
        self.totalBytes = totalBytes
    }

    func update(rows: Int, bytes: Int) {
        guard enabled, Date().timeIntervalSince(lastDrawn) >= 0.25 else { return }
        lastDrawn = Date()
        drawn = true
        let elapsed = max(0.001, Date().timeIntervalSince(started))
        var line = "\r" + RunSummary.count(rows, "row").leftPadded(to: 14)
        if elapsed >= RunSummary.shortestRunWithARate {
            line += String(format: "  %8.0f rows/s", Double(rows) / elapsed)
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
