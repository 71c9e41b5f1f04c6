#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the vault's data file could not be used. The message names the file and says
/// what to do; it never holds a value or a token.
public struct VaultError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case cannotOpen
        case cannotRead
        case cannotWrite
        case notAVaultFile
        case earlierVersion
        case laterVersion
        case damaged
        case locked
        case recordsLost
        case missingBesideIndex
        case nameTooLong
    }

    private let code: Code
    /// The data file.
    public let path: String
    /// Extra detail that is safe to show: the system's error, or where the damage is.
    public let detail: String?

    private init(_ code: Code, path: String = "", detail: String? = nil) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    /// The file could not be opened or created.
    public static let cannotOpen = VaultError(.cannotOpen)
    /// The file could not be read when the vault opened.
    public static let cannotRead = VaultError(.cannotRead)
    /// A record could not be written or synced to disk; the file was cut back to its last
    /// whole record and the request that brought it failed.
    public static let cannotWrite = VaultError(.cannotWrite)
    /// The file does not start with a vault header.
    public static let notAVaultFile = VaultError(.notAVaultFile)
    /// The file was written by an earlier token function, whose tokens this version does
    /// not reproduce.
    public static let earlierVersion = VaultError(.earlierVersion)
    /// The file was written by a later version of the mock server, with a token function
    /// this version does not know.
    public static let laterVersion = VaultError(.laterVersion)
    /// A record before the end of the file does not check: the file is damaged, and is
    /// left as it is rather than cut short.
    public static let damaged = VaultError(.damaged)
    /// Another process holds the file.
    public static let locked = VaultError(.locked)
    /// The file holds fewer records than its index says it held when the vault last
    /// closed: records it acknowledged were cut off or replaced since.
    public static let recordsLost = VaultError(.recordsLost)
    /// The file does not exist, but its index does: the vault was moved or deleted.
    public static let missingBesideIndex = VaultError(.missingBesideIndex)
    /// The file's name leaves no room for its index's names.
    public static let nameTooLong = VaultError(.nameTooLong)

    static func cannotOpen(_ path: String, errno code: Int32) -> VaultError {
        VaultError(.cannotOpen, path: path, detail: String(cString: strerror(code)))
    }
    static func cannotRead(_ path: String, errno code: Int32) -> VaultError {
        VaultError(.cannotRead, path: path, detail: String(cString: strerror(code)))
    }
    static func cannotWrite(_ path: String, errno code: Int32) -> VaultError {
        VaultError(.cannotWrite, path: path, detail: String(cString: strerror(code)))
    }
    static func notAVaultFile(_ path: String) -> VaultError { VaultError(.notAVaultFile, path: path) }
    static func earlierVersion(_ path: String, version: String) -> VaultError {
        VaultError(.earlierVersion, path: path, detail: version)
    }
    static func laterVersion(_ path: String, version: String) -> VaultError {
        VaultError(.laterVersion, path: path, detail: version)
    }
    static func damaged(_ path: String, offset: Int) -> VaultError {
        VaultError(.damaged, path: path, detail: "byte \(offset)")
    }
    static func locked(_ path: String) -> VaultError { VaultError(.locked, path: path) }
    static func missingBesideIndex(_ path: String, index: String) -> VaultError {
        VaultError(.missingBesideIndex, path: path, detail: index)
    }
    static func nameTooLong(_ path: String, limit: Int) -> VaultError {
        VaultError(.nameTooLong, path: path, detail: "\(limit)")
    }
    static func recordsLost(_ path: String, detail: String) -> VaultError {
        VaultError(.recordsLost, path: path, detail: detail)
    }

    public static func == (lhs: VaultError, rhs: VaultError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    public var description: String {
        let reason = detail.map { " (\($0))" } ?? ""
        switch code {
        case .cannotOpen:
            return "the vault file \(path) could not be opened or created\(reason)"
        case .cannotRead:
            return "the vault file \(path) could not be read\(reason); it was left as it is"
        case .cannotWrite:
            return "the vault file \(path) could not be written\(reason)"
        case .notAVaultFile:
            return "\(path) is not a ZeroPii vault file (bad header)"
        case .earlierVersion:
            return
                "the vault file \(path) was written by an earlier version of the mock server (format \(detail ?? "?")), "
                + "whose tokens this version does not reproduce; move it away or delete it to start a new vault, "
                + "in which every value gets a new token"
        case .laterVersion:
            return
                "the vault file \(path) was written by a later version of the mock server (format \(detail ?? "?")), "
                + "whose tokens this version cannot compute; use that version, or move the file away to start a new vault"
        case .damaged:
            return
                "the vault file \(path) is damaged\(reason): a record before its end does not check, so it was left "
                + "as it is; restore it from a backup, or move it away to start a new vault"
        case .missingBesideIndex:
            return
                "the vault file \(path) does not exist, but its index \(detail ?? "") does: the vault was moved or deleted; "
                + "put it back, or delete the index to start a new vault, in which every value gets a new token"
        case .nameTooLong:
            return
                "the vault file name \(path) is too long: a vault's name may have at most \(detail ?? "?") bytes, "
                + "which leaves room for its index's names"
        case .recordsLost:
            return
                "the vault file \(path) has lost records\(reason): values it answered were cut off or replaced since it "
                + "last closed, so it was left as it is; restore it from a backup, or delete \(VaultIndex.path(forVault: path)) "
                + "to go on without them"
        case .locked:
            return
                "the vault file \(path) is in use by another zeropii process; stop that process, "
                + "or give this one a vault of its own (serve --data-file FILE, tokenize --data-dir FOLDER)"
        }
    }
}
