#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls through which ``VaultFile`` and ``VaultIndexFile`` read and write
/// their data: the one seam where a test injects a failed or short write, a failed sync
/// or a read error. Each call has the meaning and return value of the POSIX call it is
/// named after (`readAt` is `pread`, `writeAt` is `pwrite`).
protocol VaultFileSystem: Sendable {
    func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int
    func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int
    func readAt(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int) -> Int
    func writeAt(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: Int) -> Int
    /// Makes written data durable: `F_FULLFSYNC` where the platform has it (a plain
    /// `fsync` on Apple platforms leaves the data in the drive's cache), else `fsync`.
    func synchronize(_ descriptor: Int32) -> Int32
    func truncate(_ descriptor: Int32, _ length: Int) -> Int32
}

/// The real system calls.
struct SystemVaultFileSystem: VaultFileSystem {
    func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.read(descriptor, buffer, count)
        #else
        return Darwin.read(descriptor, buffer, count)
        #endif
    }

    func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(descriptor, buffer, count)
        #else
        return Darwin.write(descriptor, buffer, count)
        #endif
    }

    func readAt(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int) -> Int {
        pread(descriptor, buffer, count, off_t(offset))
    }

    func writeAt(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: Int) -> Int {
        pwrite(descriptor, buffer, count, off_t(offset))
    }

    func synchronize(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        // F_FULLFSYNC fails on file systems that lack it; fsync is then the best there is.
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(descriptor)
    }

    func truncate(_ descriptor: Int32, _ length: Int) -> Int32 {
        ftruncate(descriptor, off_t(length))
    }
}
