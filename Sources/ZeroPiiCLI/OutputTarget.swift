import Foundation
import ZeroPiiMockServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an output path names once links are followed: a file to replace, or one of the
/// process's own streams; and whether two paths name the same place.
enum OutputTarget {
    /// A path with its links followed.
    struct Resolved: Equatable {
        /// The path to write or replace: the last link's target, or the path itself.
        let path: String
        /// The descriptor of a stream of this process (`/dev/stdout`, `/dev/fd/2`, ...),
        /// written as it is rather than replaced.
        let stream: Int32?
    }

    /// The most links followed before a path is taken as a loop (as the kernel's limit).
    static let maximumLinks = 40

    /// Follows `path`'s symbolic links (the last component's, as `open` would).
    /// - Throws: ``FileAccessError`` for a link to nothing, or a loop.
    static func resolve(_ path: String) throws -> Resolved {
        var current = path
        for _ in 0..<maximumLinks {
            if let stream = processStream(current) { return Resolved(path: current, stream: stream) }
            var status = stat()
            guard lstat(current, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return Resolved(path: current, stream: nil) }
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                throw FileAccessError(description: "cannot follow the link '\(path)'")
            }
            current = target.hasPrefix("/") ? target : (FileSystemPath.folder(of: current) as NSString).appendingPathComponent(target)
        }
        throw FileAccessError(description: "cannot write '\(path)': too many levels of symbolic links")
    }

    /// The descriptor `path` names when it is one of this process's streams.
    static func processStream(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let number = Int32(path.dropFirst(prefix.count)), number >= 0 { return number }
            }
            return nil
        }
    }

    /// Whether two output paths (`-` is standard output) end up in the same file or
    /// stream: compared by device and inode where they exist, else by their folder's real
    /// path and name.
    static func same(_ first: String, _ second: String) -> Bool {
        guard let a = identity(first), let b = identity(second) else { return false }
        return a == b
    }

    private enum Identity: Equatable {
        case file(device: UInt64, inode: UInt64)
        case path(String)
    }

    private static func identity(_ given: String) -> Identity? {
        var status = stat()
        let resolved = given == "-" ? Resolved(path: given, stream: STDOUT_FILENO) : try? resolve(given)
        guard let resolved else { return nil }
        if let stream = resolved.stream {
            guard fstat(stream, &status) == 0 else { return nil }
            return .file(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        }
        if stat(resolved.path, &status) == 0 {
            // /dev/null (any device) may take both: nothing is lost there by design.
            if (status.st_mode & S_IFMT) == S_IFCHR { return nil }
            return .file(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        }
        let folder = FileSystemPath.folder(of: resolved.path)
        let name = (resolved.path as NSString).lastPathComponent
        guard let real = realpath(folder.isEmpty ? "." : folder, nil) else { return .path(resolved.path) }
        defer { free(real) }
        return .path(String(cString: real) + "/" + name)
    }

    /// The start of the names of runs' own files beside `path`: `.NAME.zeropii-`.
    static func ownFilePrefix(for path: String) -> String {
        "." + (path as NSString).lastPathComponent + ".zeropii-"
    }

    /// Removes the own files beside `path` of runs whose process no longer exists (ended
    /// by SIGKILL, which no handler sees). The name carries the process id; a file whose
    /// process runs, or whose id cannot be read, is left alone.
    static func removeFilesOfEndedRuns(beside path: String) {
        let folder = FileSystemPath.folder(of: path)
        let prefix = ownFilePrefix(for: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            // Exactly PID-XXXXXX, as mkstemp makes it: nothing else of that shape is removed.
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid() else { continue }
            let suffix = rest[rest.index(after: dash)...]
            guard suffix.count == 6, suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { continue }
            let path = (folder.isEmpty ? "" : folder + "/") + name
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(path) }
        }
    }
}
