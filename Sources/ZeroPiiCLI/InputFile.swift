#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file or standard input, read with POSIX `read`.
///
/// FileHandle traps on a read error (a folder, a device that fails); here every
/// failure is a ``FileAccessError`` naming the file and the reason, which the command
/// prints as one line.
final class InputFile {
    /// The path as the user gave it, or "standard input".
    let name: String
    /// The size of a regular file, for the progress bar; nil for a pipe or terminal.
    let size: Int?
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    private init(name: String, descriptor: Int32, ownsDescriptor: Bool, size: Int?) {
        self.name = name
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.size = size
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Standard input.
    static var standardInput: InputFile {
        InputFile(name: "standard input", descriptor: STDIN_FILENO, ownsDescriptor: false, size: nil)
    }

    /// Opens `path` (`-` is standard input) for reading.
    /// - Throws: ``FileAccessError`` when it is missing, a folder, or not readable.
    static func open(_ path: String) throws -> InputFile {
        if path == "-" { return standardInput }
        var descriptor: Int32
        repeat {
            descriptor = openFile(path, O_RDONLY)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            throw FileAccessError(description: "cannot read '\(path)': \(Console.reason(errno))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw FileAccessError(description: "cannot read '\(path)': \(Console.reason(code))")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw FileAccessError(description: "cannot read '\(path)': it is a folder, not a file")
        }
        let size = (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
        return InputFile(name: "'\(path)'", descriptor: descriptor, ownsDescriptor: true, size: size)
    }

    /// True when `path` names this very file (so writing it would destroy the input).
    func isSameFile(asPath path: String) -> Bool {
        guard path != "-" else { return false }
        var mine = stat()
        var other = stat()
        guard fstat(descriptor, &mine) == 0, stat(path, &other) == 0 else { return false }
        return mine.st_dev == other.st_dev && mine.st_ino == other.st_ino && (mine.st_mode & S_IFMT) == S_IFREG
    }

    /// The next bytes, up to `maximum`; nil at the end of the input.
    /// - Throws: ``FileAccessError`` when the read fails; `CancellationError` when the
    ///   calling task is cancelled while no input comes.
    func read(maximum: Int = 1 << 20) throws -> [UInt8]? {
        try waitUntilReadable()
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: maximum) { buffer, count in
            while true {
                let result = systemRead(descriptor, buffer.baseAddress, maximum)
                if result < 0 && errno == EINTR { continue }
                if result < 0 { failure = errno }
                count = max(0, result)
                return
            }
        }
        if failure != 0 {
            throw FileAccessError(description: "reading \(name) failed: \(Console.reason(failure))")
        }
        return bytes.isEmpty ? nil : bytes
    }

    /// Waits for input in slices of a fifth of a second, so that a run cancelled by a
    /// signal while a slow producer (or a person) sends nothing stops waiting at once
    /// instead of at the next line. A regular file is always ready.
    private func waitUntilReadable() throws {
        while true {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 200)
            if ready > 0 || (ready < 0 && errno != EINTR) { return }
            if Task.isCancelled { throw CancellationError() }
        }
    }

    /// True when the input is a terminal: someone typing, for whom a progress bar is noise.
    var isTerminal: Bool { isatty(descriptor) == 1 }

    /// True when a read would not block: data (or the end) is waiting. Lets a command
    /// reading a terminal or a slow pipe answer what it has before waiting for more.
    var isReadyToRead: Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }
}

/// An input or output file that cannot be used; the description names the file and
/// the reason.
struct FileAccessError: Error, CustomStringConvertible {
    let description: String
}

// The system calls under names that do not collide with the methods above.
private func openFile(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
