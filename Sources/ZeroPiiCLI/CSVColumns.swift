/// Finds the columns named by `--columns` in a CSV header.
///
/// An exact match wins, and every column whose header is exactly the name is used
/// (a header may name a column twice; each of them is tokenized, with a note). A name
/// that matches only when case is ignored (`email` for `Email`) is used, with a note,
/// as long as it matches one column only. A name that matches nothing gets the
/// closest header names as a suggestion.
///
/// Messages never show a header cell that looks like data (``looksLikeData(_:)``):
/// when a file has no header, its first line is personal data. Such a column is named
/// by its position instead.
enum CSVColumns {
    struct Resolution: Equatable {
        /// The position of each requested column, in the order requested (a name that
        /// heads several columns gives all of them, left to right).
        let indexes: [Int]
        /// Notes for standard error about names matched ignoring case or heading
        /// several columns.
        let notes: [String]
    }

    struct Failure: Error, Equatable {
        let message: String
        let hint: String
    }

    static func resolve(_ requested: [String], in names: [String]) -> Result<Resolution, Failure> {
        var indexes: [Int] = []
        /// The name in --columns that chose each column, for the message when two choose one.
        var chosenBy: [Int: String] = [:]
        var notes: [String] = []
        // Notes on columns not chosen, kept until the end: a later name may choose them.
        var caseNotes: [(index: Int, text: String)] = []
        for column in requested {
            let exact = names.indices.filter { names[$0] == column }
            if !exact.isEmpty {
                for index in exact {
                    if let twice = repeated(index, chosenBy: chosenBy, now: column, names: names) { return .failure(twice) }
                    indexes.append(index)
                    chosenBy[index] = column
                }
                if exact.count > 1 {
                    let positions = exact.map { "\($0 + 1)" }.joined(separator: ", ")
                    notes.append("\(exact.count) columns (\(positions)) are named '\(column)'; all of them are tokenized")
                }
                // Exact names win; one that differs only in case is another column, but
                // likely the same kind of data, so the user hears of it.
                for other in names.indices where !exact.contains(other) && names[other].lowercased() == column.lowercased() {
                    caseNotes.append(
                        (
                            other,
                            "\(named(other, in: names)) differs from \(shownRequest(column)) only in case and is not tokenized; name it in --columns to tokenize it too"
                        ))
                }
                continue
            }
            let folded = names.indices.filter { names[$0].lowercased() == column.lowercased() }
            if folded.count == 1 {
                if let twice = repeated(folded[0], chosenBy: chosenBy, now: column, names: names) { return .failure(twice) }
                indexes.append(folded[0])
                chosenBy[folded[0]] = column
                notes.append("the CSV has no column \(shownRequest(column)); using \(shown(folded[0], in: names)), which differs only in case")
                continue
            }
            if folded.count > 1 {
                let candidates = folded.map { shown($0, in: names) }.joined(separator: " or ")
                return .failure(
                    Failure(message: "the CSV has no column \(shownRequest(column)); did you mean \(candidates)?", hint: columnList(names)))
            }
            if !column.isEmpty && column.count <= 3 && column.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return .failure(
                    Failure(
                        message: "the CSV has no column '\(column)'",
                        hint: "columns are chosen by position only without a header: --no-header --columns \(column)"))
            }
            let suggestions = closest(to: column, in: names.filter { !looksLikeData($0) })
            let question = suggestions.isEmpty ? "" : "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: " or "))?"
            return .failure(Failure(message: "the CSV has no column \(shownRequest(column))\(question)", hint: columnList(names)))
        }
        return .success(Resolution(indexes: indexes, notes: notes + caseNotes.filter { !indexes.contains($0.index) }.map(\.text)))
    }

    /// A column named twice (`--columns b,b`, or `email,Email`) would be sent and counted
    /// twice per row; it is refused instead.
    private static func repeated(_ index: Int, chosenBy: [Int: String], now name: String, names: [String]) -> Failure? {
        guard let earlier = chosenBy[index] else { return nil }
        let message =
            earlier == name
            ? "--columns names \(named(index, in: names)) twice"
            : "--columns '\(earlier)' and '\(name)' both name \(named(index, in: names))"
        return Failure(message: message, hint: "name each column once")
    }

    /// The columns at 1-based `positions` (`--no-header --columns 1,3`) in rows of
    /// `fieldCount` fields (the first row's).
    static func resolve(positions: [Int], fieldCount: Int) -> Result<Resolution, Failure> {
        var indexes: [Int] = []
        for position in positions {
            guard position <= fieldCount else {
                return .failure(
                    Failure(
                        message:
                            "--columns \(position < 1000 ? "\(position)" : "(a number too large to be a position, not shown)"): the rows have \(RunSummary.count(fieldCount, "field"))",
                        hint: "columns are counted from 1, up to \(fieldCount)"))
            }
            guard !indexes.contains(position - 1) else {
                return .failure(Failure(message: "--columns gives column \(position) twice", hint: "give each column once"))
            }
            indexes.append(position - 1)
        }
        return .success(Resolution(indexes: indexes, notes: []))
    }

    /// Whether a header cell looks like data rather than a column name, so that no
    /// message may show it: it holds an `@`, four or more digits, a line break or
    /// another control character (which would act on the terminal), or is longer than
    /// 40 characters.
    static func looksLikeData(_ name: String) -> Bool {
        name.count > 40 || name.contains("@") || name.filter(\.isWholeNumber).count >= 4 || name.contains(where: \.isNewline)
            || name.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.isNoncharacterCodePoint }
    }

    /// The header cell at `index` as a message shows it: quoted, or by its position
    /// when it looks like data.
    static func shown(_ index: Int, in names: [String]) -> String {
        looksLikeData(names[index]) ? "column \(index + 1) (not shown: looks like data, not a name)" : "'\(names[index])'"
    }

    /// The header cell at `index` in a sentence: "the column 'email'", or "column 3 (not
    /// shown: ...)".
    static func named(_ index: Int, in names: [String]) -> String {
        looksLikeData(names[index]) ? shown(index, in: names) : "the column '\(names[index])'"
    }

    /// The hint after a failure. It never lists the header's cells: a first line that is
    /// data (a file without a header) holds names and places that no test of a single
    /// cell can tell from column names. When most cells look like data, it says so.
    static func columnList(_ names: [String]) -> String {
        let dataLike = names.filter(looksLikeData).count
        if dataLike * 2 > names.count {
            return
                "the first line looks like data rather than a header (\(dataLike) of \(RunSummary.count(names.count, "cell"))); --csv needs a first line that names the columns, or --no-header with --columns by position (1,3)"
        }
        return
            "the first line has \(RunSummary.count(names.count, "cell")) (not listed, since it may be data): give --columns the names it has, as 'head -1 FILE' shows them, or --no-header with --columns by position (1,3)"
    }

    /// A name given to `--columns` as a message shows it: quoted, or not at all when it
    /// looks like data (an email typed in the wrong place).
    static func shownRequest(_ name: String) -> String {
        looksLikeData(name) ? "(a name that looks like data, not shown)" : "'\(name)'"
    }

    /// The names within a small edit distance of `name` (ignoring case): 1 for a name
    /// of up to 3 characters, 2 for a longer one; the closest ones only.
    static func closest(to name: String, in names: [String]) -> [String] {
        let target = Array(name.lowercased())
        let limit = target.count <= 3 ? 1 : 2
        let scored = names.map { ($0, editDistance(target, Array($0.lowercased()))) }.filter { $0.1 <= limit }
        guard let best = scored.map(\.1).min() else { return [] }
        return scored.filter { $0.1 == best }.map(\.0)
    }

    /// Edit distance with insertions, deletions, substitutions and swaps of two
    /// neighbours (the optimal string alignment distance), so `emial` is 1 from `email`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
