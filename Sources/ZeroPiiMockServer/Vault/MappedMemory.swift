#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Zero-filled memory mapped from the system for the index's large buffers (its filter,
/// its pending fingerprints, its page cache), rather than taken from `malloc`: a page of
/// it takes no memory until it is touched, and all of it goes back to the system when
/// it is freed. `malloc` keeps freed blocks below its mapping threshold in its arenas,
/// and raises that threshold to the size of each large block freed, so buffers of a
/// closed vault, or of a filter the table outgrew, would stay in the process.
final class MappedMemory {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = max(1, byteCount)
        let mapped = mmap(nil, self.byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
            fatalError("could not map \(self.byteCount) bytes of memory for the vault's index (errno \(errno))")
        }
        bytes = mapped
    }

    deinit { munmap(bytes, byteCount) }
}
