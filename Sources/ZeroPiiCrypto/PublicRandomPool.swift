import Foundation

#if canImport(Glibc)
import Glibc
import Synchronization
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
///
/// The lock is a word in that same page, taken with an atomic compare-and-exchange, not a
/// mutex: a child forked while another thread of the parent held a mutex would find it
/// held for ever (it hung in 25 of 40 trials), whereas the wiped page hands the child an
/// open lock. The lock guards a copy of at most a kilobyte and, once per page, one
/// `getrandom`, so a waiter yields the processor rather than sleeps.
final class PublicRandomPool: @unchecked Sendable {
    // Sendable: the page is read and written only while its lock word is held; a raw
    // pointer is not Sendable, so the compiler cannot see that.
    static let shared = PublicRandomPool()

    /// Bytes the pool can hold; draws larger than a quarter of it go to the system.
    static let capacity = pageByteCount - headerByteCount
    private static let pageByteCount = 4096
    /// The page's first word is the lock (0: open), its second counts the bytes not yet
    /// handed out; the bytes start after the header.
    private static let headerByteCount = 64
    private static let countOffset = 8

    /// The page, or nil when it could not be mapped and marked to be wiped on fork.
    private let page: UnsafeMutableRawPointer?

    /// A pool with a page of its own (tests make their own; the SDK shares ``shared``).
    init() {
        page = Self.mapPageWipedOnFork()
    }

    deinit {
        #if canImport(Glibc)
        if let page { munmap(page, Self.pageByteCount) }
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
        Self.withLock(on: page) {
            var available = page.load(fromByteOffset: Self.countOffset, as: Int.self)
            if available < buffer.count {
                SecureRandom.fill(UnsafeMutableRawBufferPointer(start: page + Self.headerByteCount, count: Self.capacity))
                available = Self.capacity
            }
            // Taken from the end, so the count alone says what is left.
            available -= buffer.count
            let source = page + Self.headerByteCount + available
            destination.copyMemory(from: source, byteCount: buffer.count)
            source.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count)
            page.storeBytes(of: available, toByteOffset: Self.countOffset, as: Int.self)
        }
    }

    /// Runs `body` holding the page's lock word.
    private static func withLock(on page: UnsafeMutableRawPointer, _ body: () -> Void) {
        #if canImport(Glibc)
        // Bound once, at mapping; zero bits are an open lock, as the wiped page has.
        let lock = page.assumingMemoryBound(to: Atomic<Int>.self)
        while !lock.pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            sched_yield()
        }
        defer { lock.pointee.store(0, ordering: .releasing) }
        #endif
        body()
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
        _ = page.bindMemory(to: Atomic<Int>.self, capacity: 1)
        return page
        #else
        return nil
        #endif
    }
}
