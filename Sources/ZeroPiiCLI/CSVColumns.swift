/// Finds the columns named by `--columns` in a CSV header.
///
/// An exact match wins. A name that matches only when case is ignored (`email` for
/// `Email`) is used, with a note, as long as it matches one column only. A name that
/// matches nothing gets the closest header names as a suggestion.
enum CSVColumns {
    struct Resolution: Equatable {
        /// The position of each requested column, in the order requested.
        let indexes: [Int]
        /// Notes for standard error about names matched ignoring case.
        let notes: [String]
    }

    struct Failure: Error, Equatable {
        let message: String
        let hint: String
    }

    static func resolve(_ requested: [String], in names: [String]) -> Result<Resolution, Failure> {
        var indexes: [Int] = []
        var notes: [String] = []
        let list = names.map { "'\($0)'" }.joined(separator: ", ")
        for column in requested {
            if let exact = names.firstIndex(of: column) {
                if let twice = repeated(exact, in: indexes, names: names) { return .failure(twice) }
                indexes.append(exact)
                continue
            }
            let folded = names.indices.filter { names[$0].lowercased() == column.lowercased() }
            if folded.count == 1 {
                if let twice = repeated(folded[0], in: indexes, names: names) { return .failure(twice) }
                indexes.append(folded[0])
                notes.append("the CSV has no column '\(column)'; using '\(names[folded[0]])', which differs only in case")
                continue
            }
            if folded.count > 1 {
                let candidates = folded.map { "'\(names[$0])'" }.joined(separator: " or ")
                return .failure(Failure(message: "the CSV has no column '\(column)'; did you mean \(candidates)?", hint: "its columns are: \(list)"))
            }
            let suggestions = closest(to: column, in: names)
            let question = suggestions.isEmpty ? "" : "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: " or "))?"
            return .failure(Failure(message: "the CSV has no column '\(column)'\(question)", hint: "its columns are: \(list)"))
        }
        return .success(Resolution(indexes: indexes, notes: notes))
    }

    /// A column named twice (`--columns b,b`, or `email,Email`) would be sent and counted
    /// twice per row; it is refused instead.
    private static func repeated(_ index: Int, in chosen: [Int], names: [String]) -> Failure? {
        guard chosen.contains(index) else { return nil }
        return Failure(message: "--columns names the column '\(names[index])' twice", hint: "name each column once")
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
