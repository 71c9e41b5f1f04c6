import Foundation

/// Files that hold secrets for `zeropii serve`: client credentials and the admin token.
enum SecretFile {
    /// The file's bytes, or why it cannot be read, in a sentence that names it as `name`
    /// ("the client file /etc/x cannot be read: it is a folder").
    static func read(_ path: String, named name: String) -> Result<Data, ServeClients.Failure> {
        do {
            return .success(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            // The system's reason (no such file, permission denied, a folder), read anew:
            // Foundation's error text differs between platforms.
            var status = stat()
            let reason: String
            if stat(path, &status) != 0 {
                reason = Console.reason(errno)
            } else if (status.st_mode & S_IFMT) == S_IFDIR {
                reason = "it is a folder"
            } else if access(path, R_OK) != 0 {
                reason = Console.reason(errno)
            } else {
                reason = "it could not be read"
            }
            return .failure(ServeClients.Failure(message: "\(name) cannot be read: \(reason)"))
        }
    }

    /// The admin token in `path`: its first line without surrounding spaces, at least
    /// `minimumLength` characters of visible ASCII. Errors never quote the file's content.
    static func adminToken(_ path: String, minimumLength: Int) -> Result<String, ServeClients.Failure> {
        let name = "the admin token file \(path)"
        switch read(path, named: name) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let data):
            let firstLine = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
            let token = firstLine.trimmingCharacters(in: .whitespacesAndNewlines)
            guard token.count >= minimumLength else {
                return .failure(ServeClients.Failure(message: "\(name) must hold a token of at least \(minimumLength) characters on its first line"))
            }
            guard token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                return .failure(ServeClients.Failure(message: "\(name) must hold visible ASCII characters only, as an HTTP header carries them"))
            }
            return .success(token)
        }
    }

    /// Whether anyone but the owner may read `path` (a warning, as ssh gives for keys).
    static func isReadableByOthers(_ path: String) -> Bool {
        guard let permissions = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int else { return false }
        return permissions & 0o044 != 0
    }
}
