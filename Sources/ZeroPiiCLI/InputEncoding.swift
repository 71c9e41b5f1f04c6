/// The text encodings `zeropii tokenize` reads. Whatever the input's encoding, values are
/// converted to UTF-8 before they are tokenized and every output is written in UTF-8.
///
/// UTF-8 and UTF-16 (either byte order) are recognised by a byte-order mark at the
/// start; the single-byte encodings spreadsheets export in (Excel on Windows writes
/// windows-1252, older Unix tools ISO-8859-1) cannot be recognised that way and are
/// named with `--encoding`.
enum InputEncoding: String, CaseIterable, Sendable {
    case utf8 = "utf-8"
    case utf16LittleEndian = "utf-16le"
    case utf16BigEndian = "utf-16be"
    case windows1252 = "windows-1252"
    case latin1 = "iso-8859-1"

    /// The encoding `--encoding` names: the names above, or a common alias, in any case
    /// (`utf8`, `cp1252`, `latin1`, `iso8859-1`).
    init?(optionValue: String) {
        let name = optionValue.lowercased()
        if let exact = InputEncoding(rawValue: name) {
            self = exact
            return
        }
        let aliases: [String: InputEncoding] = [
            "utf8": .utf8, "utf16le": .utf16LittleEndian, "utf16be": .utf16BigEndian, "cp1252": .windows1252, "windows1252": .windows1252,
            "latin1": .latin1, "latin-1": .latin1, "iso8859-1": .latin1, "iso-8859-1": .latin1, "iso_8859-1": .latin1,
        ]
        guard let alias = aliases[name] else { return nil }
        self = alias
    }

    /// The byte-order mark that announces this encoding, if it has one.
    var byteOrderMark: [UInt8]? {
        switch self {
        case .utf8: [0xEF, 0xBB, 0xBF]
        case .utf16LittleEndian: [0xFF, 0xFE]
        case .utf16BigEndian: [0xFE, 0xFF]
        case .windows1252, .latin1: nil
        }
    }

    /// The encoding whose byte-order mark `bytes` start with, if any. UTF-8's is
    /// checked first; UTF-32's (which starts like UTF-16 LE's) is not supported and
    /// reads as UTF-16 LE followed by a NUL character, which the reader then refuses.
    static func announced(by bytes: some Collection<UInt8>) -> InputEncoding? {
        [InputEncoding.utf8, .utf16LittleEndian, .utf16BigEndian].first { encoding in
            encoding.byteOrderMark.map { bytes.starts(with: $0) } ?? false
        }
    }

    /// The names `--encoding` accepts, for its help and errors.
    static let optionValues = allCases.map(\.rawValue).joined(separator: ", ")
}
