import Foundation
import ZeroPiiLocking
import ZeroPiiMockServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command's data goes: a file or standard output, buffered, written with
/// POSIX `write`.
///
/// When the reader of standard output has gone (`zeropii ... | head -1`), the write
/// fails with `EPIPE` (SIGPIPE is ignored in `main`), ``flush()`` throws
/// ``OutputClosedError`` and the command ends quietly, as `cat` does. Other failures
/// (a full disk) are a ``FileAccessError``.
///
/// A file is replaced only by a run that finished: the rows go to a new file of this run's
/// own beside it (`.FILE.zeropii-PID-XXXXXX`, created exclusively, so no existing file or
/// link is ever opened; one left by a process that no longer runs, after SIGKILL, is
/// removed by the next run on `FILE`), which ``finish()`` renames onto `FILE` with `FILE`'s permissions
/// (one step: a reader sees the old file or the new one, never half of it; of two runs
/// writing one `FILE`, the last to finish wins whole). A run that stops before that (a
/// signal, a vault that cannot write, refused credentials, `--strict`) leaves `FILE` as it
/// was and renames what it wrote to `FILE.partial` (``keepPartial()``); a run that fails
/// before writing anything removes its file again; a finished run removes a `FILE.partial`
/// an earlier run left. An output that is no regular file (a FIFO, `/dev/null`, a
/// terminal) is written in place. A symbolic link is followed: the file it names is
/// replaced and the link stays. The process's own streams (`/dev/stdout`, `/dev/stderr`,
/// `/dev/fd/N`, `/proc/self/fd/N`, or a link to one) are written as they are, as `-` is.
final class OutputFile {
    /// How messages name the output: the target file (never this run's own file), or
    /// standard output.
    let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let flushThreshold: Int
    private var buffer: [UInt8] = []
    /// For a file: the target and this run's own file, written until the run ends.
    private let paths: (target: String, own: String)?
    /// Whether this run's file has been renamed (onto the target or to the partial name).
    private var partialSettled = false
    /// Whether the target file existed before the run, for what a run that stops early
    /// says of it: it keeps its old contents, or was not made.
    let targetExisted: Bool

    private init(
        name: String, descriptor: Int32, ownsDescriptor: Bool, flushThreshold: Int, paths: (target: String, own: String)? = nil,
        targetExisted: Bool = true
    ) {
        self.name = name
        self.targetExisted = targetExisted
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.flushThreshold = flushThreshold
        self.paths = paths
        buffer.reserveCapacity(flushThreshold)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
        if let paths, !partialSettled {
            unlink(paths.own)
            Self.unfinished.withLock { _ = $0.remove(paths.own) }
        }
    }

    /// This process's own files not yet renamed, for a process that must end at once.
    private static let unfinished = Locked(Set<String>())

    /// Removes every file of this process's runs not yet renamed into place: called just
    /// before the process ends at once (a second SIGINT), which runs no deinit.
    static func removeUnfinishedFiles() {
        unfinished.withLock { paths in
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }

    /// Standard output. Written in chunks of 64 KiB, so a reader sees rows as they are
    /// tokenized and a closed pipe is noticed early.
    static var standardOutput: OutputFile {
        OutputFile(name: "standard output", descriptor: STDOUT_FILENO, ownsDescriptor: false, flushThreshold: 64 << 10)
    }

    /// Where a run that stopped early leaves its rows for `path`.
    static func partialPath(for path: String) -> String { path + ".partial" }

    /// Opens the output for `path`; `-` is standard output. For a regular file, or one
    /// that does not exist yet, the rows go to a new file of this run's own beside it
    /// until ``finish()`` or ``keepPartial()``.
    /// - Throws: ``FileAccessError`` when it cannot be opened or created.
    static func create(_ given: String) throws -> OutputFile {
        if given == "-" { return standardOutput }
        let resolved = try OutputTarget.resolve(given)
        if let stream = resolved.stream {
            return OutputFile(name: "'\(given)'", descriptor: stream, ownsDescriptor: false, flushThreshold: 64 << 10)
        }
        let path = resolved.path
        var status = stat()
        let exists = stat(path, &status) == 0
        if exists && (status.st_mode & S_IFMT) != S_IFREG {
            // A FIFO, a terminal, /dev/null: nothing to replace, written in place.
            let descriptor = openForWriting(path, flags: 0, mode: 0o644)
            guard descriptor >= 0 else { throw FileAccessError(description: "cannot write '\(path)': \(Console.reason(errno))") }
            return OutputFile(name: "'\(path)'", descriptor: descriptor, ownsDescriptor: true, flushThreshold: 1 << 20)
        }
        // The target must be writable where it is, or the rename at the end would be the
        // first to find out.
        if exists && access(path, W_OK) != 0 {
            throw FileAccessError(description: "cannot write '\(path)': \(Console.reason(errno))")
        }
        let folder = FileSystemPath.folder(of: path)
        OutputTarget.removeFilesOfEndedRuns(beside: path)
        let own = (folder.isEmpty ? "" : folder + "/") + OutputTarget.ownFilePrefix(for: path) + "\(getpid())-XXXXXX"
        var template = Array(own.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw FileAccessError(description: "cannot write beside '\(path)': \(Console.reason(errno))")
        }
        let ownPath = String(cString: template)
        unfinished.withLock { _ = $0.insert(ownPath) }
        // The target's permissions (mkstemp makes 0600); a new file gets 0644 less the umask.
        let mask = umask(0)
        _ = umask(mask)
        _ = fchmod(descriptor, exists ? mode_t(status.st_mode & 0o7777) : 0o644 & ~mask)
        return OutputFile(
            name: "'\(given)'", descriptor: descriptor, ownsDescriptor: true, flushThreshold: 1 << 20, paths: (path, ownPath),
            targetExisted: exists)
    }

    /// True when the output is a terminal: a progress bar there would run into the rows.
    var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Buffers `bytes`, writing the buffer out when it is full.
    func write<Bytes: Sequence>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushThreshold { try flush() }
    }

    /// Writes out everything buffered.
    /// - Throws: ``OutputClosedError`` when the reader has gone, ``FileAccessError``
    ///   for any other failure.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard let code = Console.writeAll(buffer, to: descriptor) else { return }
        if code == EPIPE { throw OutputClosedError() }
        throw FileAccessError(description: "writing \(name) failed: \(Console.reason(code))")
    }
}

extension OutputFile {
    /// Writes out everything buffered at the end of a run that finished, and puts a
    /// file in place of the old one (an empty input's output is empty).
    func finish() throws {
        try flush()
        guard let paths, !partialSettled else { return }
        if fsync(descriptor) != 0 { throw FileAccessError(description: "writing \(name) failed: \(Console.reason(errno))") }
        guard rename(paths.own, paths.target) == 0 else {
            throw FileAccessError(description: "cannot put the new '\(paths.target)' in place: \(Console.reason(errno))")
        }
        partialSettled = true
        Self.unfinished.withLock { _ = $0.remove(paths.own) }
        // A partial file an earlier run left is out of date now (a folder there is left alone).
        var partial = stat()
        let partialPath = Self.partialPath(for: paths.target)
        if lstat(partialPath, &partial) == 0 && (partial.st_mode & S_IFMT) != S_IFDIR { unlink(partialPath) }
    }

    /// Writes out everything buffered for a run that stopped before the end, leaves the
    /// target as it was, and returns where the rows so far are: the partial file, or nil
    /// for an output written in place.
    @discardableResult
    func keepPartial() -> String? {
        try? flush()
        guard let paths, !partialSettled else { return nil }
        let partial = Self.partialPath(for: paths.target)
        // rename replaces whatever has that name (a link too) and never follows it.
        guard rename(paths.own, partial) == 0 else { return nil }
        partialSettled = true
        Self.unfinished.withLock { _ = $0.remove(paths.own) }
        return partial
    }
}

/// The reader of the output has gone; the run ends quietly.
struct OutputClosedError: Error {
    /// The exit status after a closed output: what a shell reports for a process that
    /// SIGPIPE ended (128 + 13), as `cat` in the same place.
    static let exitStatus: Int32 = 141
}

/// Opens `path` write-only with `flags` added, retrying after a signal.
private func openForWriting(_ path: String, flags: Int32, mode: mode_t) -> Int32 {
    var descriptor: Int32
    repeat {
        descriptor = open(path, O_WRONLY | flags, mode)
    } while descriptor < 0 && errno == EINTR
    return descriptor
}
