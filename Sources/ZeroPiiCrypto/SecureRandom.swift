import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Random bytes from the operating system's cryptographically secure generator.
///
/// On Apple platforms that is `arc4random_buf`; on Linux `getentropy(3)` (the
/// `getrandom(2)` system call), one call per 256 bytes rather than one per 8 bytes as
/// `SystemRandomNumberGenerator` makes. Values sent in the clear (salts, IVs, request
/// ids) go through ``fillPublic(_:)``, which on Linux draws them from a fork-safe pool
/// filled a page at a time (`PublicRandomPool`) rather than with a system call each.
/// Elsewhere, `SystemRandomNumberGenerator`, the system CSPRNG. None can fail silently:
/// a failure traps rather than return predictable bytes.
package enum SecureRandom {
    /// Returns `count` random bytes.
    package static func bytes(count: Int) -> Data {
        data(count: count, filledBy: fill)
    }

    /// Overwrites `buffer` with random bytes for a value that is sent in the clear: an
    /// envelope's salt or IV, a request id. On Linux they come from a pool drawn a page at
    /// a time (`PublicRandomPool`, fork-safe); never use this for a key.
    package static func fillPublic(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc)
        PublicRandomPool.shared.fill(buffer)
        #else
        fill(buffer)
        #endif
    }

    /// Random bytes for a value sent in the clear (see ``fillPublic(_:)``).
    package static func publicBytes(count: Int) -> Data {
        data(count: count, filledBy: fillPublic)
    }

    private static func data(count: Int, filledBy fill: (UnsafeMutableRawBufferPointer) -> Void) -> Data {
        precondition(count >= 0, "a byte count cannot be negative")
        var result = Data(count: count)
        result.withUnsafeMutableBytes { fill($0) }
        return result
    }

    /// Overwrites `buffer` with random bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if canImport(Darwin)
        arc4random_buf(base, buffer.count)
        #elseif canImport(Glibc)
        // getentropy returns at most 256 bytes per call, and either all of them or -1.
        var offset = 0
        while offset < buffer.count {
            let chunk = Swift.min(256, buffer.count - offset)
            let status = getentropy(base + offset, chunk)
            precondition(status == 0, "the system's secure random generator failed")
            offset += chunk
        }
        #else
        fillFromGenerator(buffer)
        #endif
    }

    /// Fills `buffer` eight bytes at a time from `SystemRandomNumberGenerator`.
    static func fillFromGenerator(_ buffer: UnsafeMutableRawBufferPointer) {
        var generator = SystemRandomNumberGenerator()
        var offset = 0
        while offset < buffer.count {
            var word = generator.next()
            let chunk = Swift.min(8, buffer.count - offset)
            withUnsafeBytes(of: &word) { wordBytes in
                for index in 0..<chunk {
                    buffer[offset + index] = wordBytes[index]
                }
            }
            offset += chunk
        }
    }
}
