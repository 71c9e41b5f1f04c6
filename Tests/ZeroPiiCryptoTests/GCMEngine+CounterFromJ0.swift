import Foundation

@testable import ZeroPiiCrypto

extension GCMEngine {
    /// Counter mode alone from an explicit J0 (`counterBlock`, as its 16 bytes), so that
    /// tests can start the 32-bit counter just before it wraps, which no real nonce
    /// reaches in a test's time.
    func applyKeystream(after counterBlock: (UInt64, UInt64), input: UnsafeRawPointer, output: UnsafeMutableRawPointer, count: Int) {
        var block = counterBlock
        let (prefix, counter) = withUnsafeBytes(of: &block) { bytes in
            (
                (
                    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
                    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
                ),
                UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
            )
        }
        var zeroKey: (UInt64, UInt64) = (0, 0)
        let ghash = withUnsafeBytes(of: &zeroKey) { GHash(key: $0.baseAddress!) }
        KeystreamScratch.withScratch { scratch in
            var message = start(prefix: prefix, counter: counter, ghash: ghash, scratch: scratch)
            applyKeystream(&message, scratch: scratch, input: input, output: output, count: count)
        }
    }
}
