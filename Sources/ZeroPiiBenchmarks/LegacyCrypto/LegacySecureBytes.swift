import Foundation

/// Heap storage for secret bytes that is wiped when the last reference goes away.
///
/// Keys live here rather than in `Data` or `[UInt8]` so that their memory is
/// overwritten before it is returned to the allocator. The storage is immutable
/// after initialisation, which is why sharing it across threads is safe.
final class LegacySecureBytes: @unchecked Sendable {
    let count: Int
    private let pointer: UnsafeMutableRawPointer

    init(count: Int, initializer: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        self.count = count
        pointer = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: 16)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: Swift.max(count, 1))
        do {
            try initializer(UnsafeMutableRawBufferPointer(start: pointer, count: count))
        } catch {
            wipeAndDeallocate()
            throw error
        }
    }

    convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(count: bytes.count) { destination in
            destination.copyMemory(from: bytes)
        }
    }

    deinit {
        wipeAndDeallocate()
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    private func wipeAndDeallocate() {
        LegacyWipe.bytes(UnsafeMutableRawBufferPointer(start: pointer, count: Swift.max(count, 1)))
        pointer.deallocate()
    }
}

/// Overwrites memory that held secrets in a way the optimiser does not remove.
enum LegacyWipe {
    static func bytes(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        // A volatile-like store loop: `memset` on memory that is about to be freed
        // may be elided, so each byte is written through an opaque function.
        wipeOpaque(base, buffer.count)
    }

    @inline(never)
    private static func wipeOpaque(_ base: UnsafeMutableRawPointer, _ count: Int) {
        base.initializeMemory(as: UInt8.self, repeating: 0, count: count)
    }
}
