#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Overwrites memory that held secrets, with a call the optimiser may not remove.
///
/// A plain `memset` or store loop on memory that is never read again is a dead store,
/// and compilers delete dead stores. `explicit_bzero` (glibc, musl) and `memset_s`
/// (C11 Annex K, on Apple platforms) are specified to be kept. Every key, derived key,
/// HMAC and SHA-256 state, GHASH key and keystream block in ZeroPiiCrypto goes
/// through here right after its last use.
enum Wipe {
    /// What a wiped buffer held; debug builds report it to ``observer`` so tests can
    /// check that each kind of secret is wiped.
    enum Kind: String, Sendable {
        /// A ``SymmetricKey`` or the two envelope keys (``SecureBytes``).
        case keyStorage
        /// The expanded AES key schedule, plain or bitsliced.
        case roundKeys
        /// HKDF's pseudorandom key (the extract step's output).
        case hkdfPseudoRandomKey
        /// HKDF's `T(i)` blocks.
        case hkdfOutputBlock
        /// An HMAC's padded key, its inner and outer hash states, and the inner digest.
        case hmacState
        /// A hash function's state after it processed secret data.
        case hashState
        /// The GHASH key H (and its split forms).
        case ghashKey
        /// Encrypted counter blocks: the keystream and the tag mask E(J0).
        case keystream
        /// A copy of the access token used as key material.
        case accessTokenCopy
    }

    /// Zeroes `buffer` in a way that survives optimisation.
    static func bytes(_ buffer: UnsafeMutableRawBufferPointer, _ kind: Kind) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if DEBUG
        let observer = Self.observer
        observer?(Event(kind: kind, phase: .before, bytes: [UInt8](UnsafeRawBufferPointer(buffer))))
        #endif
        #if canImport(Darwin)
        _ = memset_s(base, buffer.count, 0, buffer.count)
        #elseif canImport(Glibc) || canImport(Musl)
        explicit_bzero(base, buffer.count)
        #else
        opaqueZero(base, buffer.count)
        #endif
        #if DEBUG
        observer?(Event(kind: kind, phase: .after, bytes: [UInt8](UnsafeRawBufferPointer(buffer))))
        #endif
    }

    /// Zeroes the bytes of a plain value held inline (a tuple of words, a hash state).
    /// Only for types without references, whose bytes can be zeroed safely.
    static func value<Value>(_ value: inout Value, _ kind: Kind) {
        guard _isPOD(Value.self) else { return }
        withUnsafeMutableBytes(of: &value) { bytes($0, kind) }
    }

    #if !canImport(Darwin) && !canImport(Glibc) && !canImport(Musl)
    /// Fallback where no kept-by-contract call exists: a store the optimiser cannot
    /// see past, because the function is never inlined.
    @inline(never)
    private static func opaqueZero(_ base: UnsafeMutableRawPointer, _ count: Int) {
        base.initializeMemory(as: UInt8.self, repeating: 0, count: count)
    }
    #endif

    #if DEBUG
    /// One wipe as a debug build reports it: the bytes just before and just after.
    struct Event: Sendable {
        enum Phase: Sendable { case before, after }
        let kind: Kind
        let phase: Phase
        let bytes: [UInt8]
    }

    /// The test hook: set for the duration of a task with `Wipe.$observer.withValue`,
    /// it sees every wipe done synchronously in that task. Task-local, so tests running
    /// in parallel do not see each other's wipes. Compiled into debug builds only.
    @TaskLocal static var observer: (@Sendable (Event) -> Void)?
    #endif
}
