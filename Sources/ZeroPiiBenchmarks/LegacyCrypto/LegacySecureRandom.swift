import Foundation

/// Random bytes from the operating system's cryptographically secure generator.
///
/// Swift's `SystemRandomNumberGenerator` is the system CSPRNG on every platform the
/// package supports: `arc4random_buf` on Apple platforms and `getrandom(2)` on Linux
/// (falling back to `/dev/urandom`). It cannot fail silently: the runtime traps
/// rather than return predictable bytes.
enum LegacySecureRandom {
    /// Returns `count` random bytes.
    static func bytes(count: Int) -> Data {
        precondition(count >= 0, "a byte count cannot be negative")
        var result = Data(count: count)
        result.withUnsafeMutableBytes { fill($0) }
        return result
    }

    /// Overwrites `buffer` with random bytes.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
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
