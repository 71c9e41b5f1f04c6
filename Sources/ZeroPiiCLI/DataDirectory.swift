import Foundation
import ZeroPiiMockServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The embedded server's data directory: made owner-only (0700) when it is missing, but
/// only inside a folder that exists unless asked (`--create-data-dir`), so a typo in
/// `--data-dir` or a `HOME` that does not exist is an error rather than a new vault with
/// other tokens somewhere unexpected.
enum DataDirectory {
    /// Where the directory comes from, for messages that say what to change.
    enum Origin {
        /// `--data-dir`.
        case option
        /// `~/.zeropii`, in the `HOME` given.
        case home(String)
    }

    /// The default directory in `home`: `home/.zeropii`, without a doubled `/`.
    static func defaultPath(home: String) -> String {
        (home as NSString).appendingPathComponent(".zeropii")
    }

    /// Makes sure `path` is a directory, creating it when missing: with its missing
    /// parents when `makeParents`, else only inside a folder that exists.
    /// - Throws: `ServerConnection.SetupError.failed` with the path, the reason and what
    ///   to do.
    static func prepare(_ path: String, origin: Origin, makeParents: Bool = false) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                switch origin {
                case .option:
                    throw ServerConnection.SetupError.failed("the data directory \(path) is a file, not a directory; give --data-dir a directory")
                case .home:
                    throw ServerConnection.SetupError.failed(
                        "the default data directory \(path) is a file, not a directory; move that file away, or give --data-dir DIR")
                }
            }
            return
        }
        let parent = FileSystemPath.folder(of: path)
        if !makeParents && !parent.isEmpty && !FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) {
            switch origin {
            case .option:
                throw ServerConnection.SetupError.failed(
                    "the data directory \(path) cannot be made: \(parent) does not exist (a typo?); "
                        + "add --create-data-dir if a new vault belongs there")
            case .home(let home):
                throw ServerConnection.SetupError.failed(
                    "the default data directory \(path) cannot be made: HOME (\(home)) does not exist; "
                        + "set HOME to your home folder, or give --data-dir DIR")
            }
        }
        if makeParents && !parent.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw ServerConnection.SetupError.failed("the data directory \(path) could not be created: \(reason(error))")
            }
        }
        if mkdir(path, 0o700) != 0 {
            let failure = errno
            // Another run that starts at the same time may have made it first.
            if failure == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
            throw ServerConnection.SetupError.failed("the data directory \(path) could not be created: \(Console.reason(failure))")
        }
    }

    /// The system's reason inside a Foundation error, when it carries one.
    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Console.reason(Int32(underlying.code))
        }
        if nsError.domain == NSPOSIXErrorDomain { return Console.reason(Int32(nsError.code)) }
        return nsError.localizedDescription
    }
}
