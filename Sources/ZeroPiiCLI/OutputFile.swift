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
/// A file is opened when the command starts, so that a path that cannot be written is
/// reported before any work, but an existing file is emptied only when the first bytes
/// are written out (or at ``finish()``): a run that fails before that (a usage error,
/// a vault that cannot open, a server that cannot start) leaves the file as it was, and
/// a file it created is removed again.
final class OutputFile {
    private let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let flushThreshold: Int
    private var buffer: [UInt8] = []
    /// The path of a file this run created, until something is written to it.
    private var createdPath: String?
    /// Whether an existing file's old contents are still to be cut off.
    private var truncationPending: Bool

    private init(
        name: String, descriptor: Int32, ownsDescriptor: Bool, flushThreshold: Int, createdPath: String? = nil, truncationPending: Bool = false
    ) {
        self.name = name
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.flushThreshold = flushThreshold
        self.createdPath = createdPath
        self.truncationPending = truncationPending
        buffer.reserveCapacity(flushThreshold)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
        if let createdPath { unlink(createdPath) }
    }

    /// Standard output. Written in chunks of 64 KiB, so a reader sees rows as they are
    /// tokenized and a closed pipe is noticed early.
    static var standardOutput: OutputFile {
        OutputFile(name: "standard output", descriptor: STDOUT_FILENO, ownsDescriptor: false, flushThreshold: 64 << 10)
    }

    /// Opens `path` for writing, creating it if needed; `-` is standard output. An
    /// existing file keeps its contents until the first write.
    /// - Throws: ``FileAccessError`` when it cannot be opened or created.
    static func create(_ path: String) throws -> OutputFile {
        if path == "-" { return standardOutput }
        var created = true
        var descriptor = openForWriting(path, flags: O_CREAT | O_EXCL)
        if descriptor < 0 && errno == EEXIST {
            created = false
            descriptor = openForWriting(path, flags: 0)
        }
        guard descriptor >= 0 else {
            throw FileAccessError(description: "cannot write '\(path)': \(Console.reason(errno))")
        }
        var status = stat()
        // Only a regular file has contents to cut off (not a FIFO, a terminal, /dev/null).
        let regular = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        return OutputFile(
            name: "'\(path)'", descriptor: descriptor, ownsDescriptor: true, flushThreshold: 1 << 20, createdPath: created ? path : nil,
            truncationPending: regular && !created)
    }

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
        try start()
        guard let code = Console.writeAll(buffer, to: descriptor) else { return }
        if code == EPIPE { throw OutputClosedError() }
        throw FileAccessError(description: "writing \(name) failed: \(Console.reason(code))")
    }
}

extension OutputFile {
    /// Writes out everything buffered at the end of a run that started, and empties an
    /// existing file even when there was nothing to write (an empty input's output is
    /// empty).
    func finish() throws {
        try start()
        try flush()
    }

    /// Cuts off an existing file's old contents, once, and keeps a file this run
    /// created.
    fileprivate func start() throws {
        createdPath = nil
        guard truncationPending else { return }
        truncationPending = false
        var result: Int32
        repeat {
            result = ftruncate(descriptor, 0)
        } while result != 0 && errno == EINTR
        if result != 0 { throw FileAccessError(description: "writing \(name) failed: \(Console.reason(errno))") }
    }
}

/// The reader of the output has gone; the run ends quietly.
struct OutputClosedError: Error {
    /// The exit status after a closed output: what a shell reports for a process that
    /// SIGPIPE ended (128 + 13), as `cat` in the same place.
    static let exitStatus: Int32 = 141
}

/// Opens `path` write-only with `flags` added, retrying after a signal.
private func openForWriting(_ path: String, flags: Int32) -> Int32 {
    var descriptor: Int32
    repeat {
        descriptor = open(path, O_WRONLY | flags, 0o644)
    } while descriptor < 0 && errno == EINTR
    return descriptor
}
