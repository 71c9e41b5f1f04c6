import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// Random bytes for values that are sent in the clear (envelope salts and IVs, request
/// ids), drawn from the kernel a page at a time rather than with a system call for each
/// of the three values every request needs (its id, its salt and its IV).
///
/// The bytes are the kernel's CSPRNG output, unchanged; the pool hands each one out once
/// and zeroes it as it goes. No key comes from here (``SecureRandom/fill(_:)`` draws keys
/// straight from the system), so the pool never holds a secret, only values that will
/// be on the wire.
///
/// A child process must not hand out the bytes its parent will. The pool's page is
/// marked `MADV_WIPEONFORK`, so the kernel gives a child a zeroed page: its pool counts
/// no bytes left and draws afresh (the fork safety of BoringSSL's generator and of the
/// kernel's own vDSO `getrandom`). Where the kernel cannot do that (before Linux 4.14)
/// or the page cannot be mapped, the pool is off and every draw is a system call. Apple
/// platforms do not use it: `arc4random_buf` already runs in the process.
final class PublicRandomPool: @unchecked Sendable {
    // Sendable: the page is read and written only inside its lock; a raw pointer is not
    // Sendable, so the compiler cannot see that.
    static let shared = PublicRandomPool()

    /// Bytes the pool can hold; draws larger than a quarter of it go to the system.
    static let capacity = pageByteCount - headerByteCount
    private static let pageByteCount = 4096
    /// The first word of the page counts the bytes not yet handed out.
    private static let headerByteCount = 64

    /// The page, or nil when it could not be mapped and marked to be wiped on fork.
    private let page: Locked<UnsafeMutableRawPointer>?

    /// A pool with a page of its own (tests make their own; the SDK shares ``shared``).
    init() {
        page = Self.mapPageWipedOnFork().map { Locked($0) }
    }

    deinit {
        #if canImport(Glibc)
        page?.withLock { _ = munmap($0, Self.pageByteCount) }
        #endif
    }

    /// Whether draws are served from the page (false: each is a system call).
    var isPooling: Bool { page != nil }

    /// Overwrites `buffer` with random bytes that no other draw, in this process or a
    /// child forked from it, is given.
    func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let destination = buffer.baseAddress, buffer.count > 0 else { return }
        guard let page, buffer.count <= Self.capacity / 4 else {
            SecureRandom.fill(buffer)
            return
        }
        page.withLock { page in
            var available = page.load(as: Int.self)
            if available < buffer.count {
                SecureRandom.fill(UnsafeMutableRawBufferPointer(start: page + Self.headerByteCount, count: Self.capacity))
                available = Self.capacity
            }
            // Taken from the end, so the count alone says what is left.
            available -= buffer.count
            let source = page + Self.headerByteCount + available
            destination.copyMemory(from: source, byteCount: buffer.count)
            source.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count)
            page.storeBytes(of: available, as: Int.self)
        }
    }

    private static func mapPageWipedOnFork() -> UnsafeMutableRawPointer? {
        #if canImport(Glibc)
        guard let page = mmap(nil, pageByteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            page != MAP_FAILED
        else { return nil }
        // MADV_WIPEONFORK (Linux 4.14); fresh anonymous pages are zero, so the count starts at 0.
        let wipeOnFork: Int32 = 18
        guard madvise(page, pageByteCount, wipeOnFork) == 0 else {
            munmap(page, pageByteCount)
            return nil
        }
        return page
        #else
        return nil
        #endif
    }
}
