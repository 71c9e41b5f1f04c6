import Foundation

/// Where `zeropii serve` gets the client credentials of its token endpoint: a file
/// (`--client-file`) or an environment variable (`ZEROPII_SERVE_CLIENTS`), so a secret
/// never shows in the process list; `--client ID:SECRET` is kept for tests and warns.
enum ServeClients {
    static let environmentVariable = "ZEROPII_SERVE_CLIENTS"

    struct Failure: Error {
        let message: String
    }

    /// One `ID:SECRET` entry; the id must not be empty nor hold a `:`, the secret must not be empty.
    static func parse(entry: Substring) -> (id: String, secret: String)? {
        guard let colon = entry.firstIndex(of: ":"), colon != entry.startIndex, entry.index(after: colon) != entry.endIndex else { return nil }
        return (String(entry[..<colon]), String(entry[entry.index(after: colon)...]))
    }

    /// A credentials file: one `ID:SECRET` per line; empty lines and lines starting with
    /// `#` are skipped. Errors name the line number, never its content.
    static func load(file path: String) -> Result<[String: String], Failure> {
        let data: Data
        switch SecretFile.read(path, named: "the client file \(path)") {
        case .success(let bytes): data = bytes
        case .failure(let failure): return .failure(failure)
        }
        var clients: [String: String] = [:]
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for (number, rawLine) in lines.enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            guard let (id, secret) = parse(entry: line) else {
                return .failure(Failure(message: "line \(number + 1) of the client file \(path) is not ID:SECRET"))
            }
            clients[id] = secret
        }
        return .success(clients)
    }

    /// `ZEROPII_SERVE_CLIENTS`: `ID:SECRET` entries separated by whitespace.
    static func load(environment value: String) -> Result<[String: String], Failure> {
        var clients: [String: String] = [:]
        for (number, entry) in value.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).enumerated() {
            guard let (id, secret) = parse(entry: entry) else {
                return .failure(Failure(message: "entry \(number + 1) of \(environmentVariable) is not ID:SECRET"))
            }
            clients[id] = secret
        }
        return .success(clients)
    }

}
