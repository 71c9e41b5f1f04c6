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
final class OutputFile {
    private let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let flushThreshold: Int
    private var buffer: [UInt8] = []

    private init(name: String, descriptor: Int32, ownsDescriptor: Bool, flushThreshold: Int) {
        self.name = name
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.flushThreshold = flushThreshold
        buffer.reserveCapacity(flushThreshold)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Standard output. Written in chunks of 64 KiB, so a reader sees rows as they are
    /// tokenized and a closed pipe is noticed early.
    static var standardOutput: OutputFile {
        OutputFile(name: "standard output", descriptor: STDOUT_FILENO, ownsDescriptor: false, flushThreshold: 64 << 10)
    }

    /// Creates (or truncates) `path`; `-` is standard output.
    /// - Throws: ``FileAccessError`` when it cannot be created.
    static func create(_ path: String) throws -> OutputFile {
        if path == "-" { return standardOutput }
        var descriptor: Int32
        repeat {
            descriptor = openForWriting(path)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            throw FileAccessError(description: "cannot write '\(path)': \(Console.reason(errno))")
        }
        return OutputFile(name: "'\(path)'", descriptor: descriptor, ownsDescriptor: true, flushThreshold: 1 << 20)
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
        guard let code = Console.writeAll(buffer, to: descriptor) else { return }
        if code == EPIPE { throw OutputClosedError() }
        throw FileAccessError(description: "writing \(name) failed: \(Console.reason(code))")
    }
}

/// The reader of the output has gone; the run ends quietly.
struct OutputClosedError: Error {
    /// The exit status after a closed output: what a shell reports for a process that
    /// SIGPIPE ended (128 + 13), as `cat` in the same place.
    static let exitStatus: Int32 = 141
}

private func openForWriting(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
}
