import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The embedded server's data directory: made owner-only (0700) when it is missing, but
/// only inside a folder that exists, so a typo in `--data-dir` is an error rather than a
/// new vault with other tokens somewhere unexpected.
enum DataDirectory {
    /// Makes sure `path` is a directory, creating it (not its parents) when missing.
    /// - Throws: `ServerConnection.SetupError.failed` with the path and the reason.
    static func prepare(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ServerConnection.SetupError.failed(
                    "the data directory \(path) is a file, not a directory; give --data-dir a directory")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && !FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) {
            throw ServerConnection.SetupError.failed(
                "the data directory \(path) cannot be made: \(parent) does not exist (a typo?); "
                    + "create \(parent) first if a new vault belongs there")
        }
        if mkdir(path, 0o700) != 0 {
            let failure = errno
            // Another run that starts at the same time may have made it first.
            if failure == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
            let reason = String(cString: strerror(failure))
            throw ServerConnection.SetupError.failed("the data directory \(path) could not be created: \(reason)")
        }
    }
}
