import Foundation

/// The line `zeropii tokenize --csv` (and `tokenize -`, `--values-from`) prints on
/// standard error at the end of a run.
struct RunSummary: Equatable {
    /// What the input is made of: "row" for a CSV, "line" for values one per line.
    var unit = "row"
    var rows = 0
    var values = 0
    var created = 0
    var existing = 0
    var blankLines = 0
    var retries = 0
    var failedRows = 0
    /// The `--rejects` file the failed rows were copied to, as messages name it.
    var rejectsName: String?
    var elapsed: TimeInterval = 0

    /// A rate over less than a second, or over no rows, says nothing; it is left out.
    static let shortestRunWithARate: TimeInterval = 1

    var text: String {
        var parts = [
            Self.count(rows, unit),
            Self.count(values, "value") + " (\(Self.count(created, "new token")), \(existing) existing)",
        ]
        if blankLines > 0 { parts.append(Self.count(blankLines, "blank line") + " passed through") }
        parts.append(Self.count(retries, "retry", plural: "retries"))
        let copied = failedRows > 0 ? rejectsName.map { " (copied to \($0))" } ?? "" : ""
        parts.append(Self.count(failedRows, unit) + " failed" + copied)
        var time = String(format: "%.1f s", elapsed)
        if elapsed >= Self.shortestRunWithARate && rows > 0 {
            time += String(format: " (%.0f \(unit)s/s)", Double(rows) / elapsed)
        }
        parts.append(time)
        return "zeropii: " + parts.joined(separator: ", ")
    }

    /// "1 row", "2 rows", "0 rows".
    static func count(_ number: Int, _ singular: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }
}
