/// `text` followed by spaces up to `width` characters, or by one space when it is that
/// long already: a column of the benchmarks' tables.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}
