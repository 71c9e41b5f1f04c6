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
/// `SystemRandomNumberGenerator` makes (a system call per envelope salt and IV, not
/// six, which was a quarter of a small request's cost). Elsewhere,
/// `SystemRandomNumberGenerator`, the system CSPRNG. None can fail silently: a
/// failure traps rather than return predictable bytes.
package enum SecureRandom {
    /// Returns `count` random bytes.
    package static func bytes(count: Int) -> Data {
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
