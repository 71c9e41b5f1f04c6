import Foundation
import ZeroPiiCrypto

/// The mock server's vault: deterministic, unique, format-preserving tokens, and a
/// memory of which values it has seen (for `exists` and `newlyCreated`).
///
/// Tokens come from a format-preserving cipher under the vault's key, so a value gets
/// the same token forever and two values never share one. With a data file, the key
/// lives in the file and every new value is written and fsynced, one record per
/// request, before the answer that reveals its token is returned. Check-and-insert
/// happens under one lock, so when many requests bring the same new value at once,
/// exactly one of them sees `newlyCreated`.
public final class TokenVault: @unchecked Sendable {
    // Sendable: `seen`, `file` and `closed` are guarded by `lock`; the cipher and keys are
    // immutable.
    /// The outcome for one value: its token and whether the vault had seen it.
    public struct Entry: Sendable {
        /// The format-preserving token.
        public let token: String
        /// Whether the value was in the vault before this call.
        public let exists: Bool
        /// Whether this call added the value.
        public let newlyCreated: Bool
    }

    private let cipher: FormatPreservingCipher
    private let fingerprintKey: HMAC<SHA256>
    private let lock = NSLock()
    private var seen: Set<Fingerprint>
    private var file: VaultFile?
    private var closed = false
    /// Bytes of a torn last record dropped when the file was opened.
    public let droppedBytes: Int

    /// A vault in memory with a fresh random key.
    public convenience init() {
        try! self.init(key: SecureRandom.bytes(count: 32), file: nil, fingerprints: [], droppedBytes: 0)
    }

    /// A vault kept in `path`, created when missing, and held by this vault until
    /// ``close()`` or its end: another process cannot open it meanwhile.
    ///
    /// - Parameters:
    ///   - path: the vault file; its folder must exist.
    ///   - whenLocked: what to do when another process holds the file: nil (the default)
    ///     throws ``VaultError/locked``; a closure is called once, to say why there is a
    ///     wait, and then the file's lock is waited for.
    /// - Throws: ``VaultError``, with a message that names the file and says what to do.
    public convenience init(path: String, whenLocked: (@Sendable () -> Void)? = nil) throws {
        try self.init(path: path, system: SystemVaultFileSystem(), whenLocked: whenLocked)
    }

    /// A vault whose file goes through `system`, for tests that inject failures.
    convenience init(path: String, system: any VaultFileSystem, whenLocked: (@Sendable () -> Void)? = nil) throws {
        let (file, fingerprints, dropped) = try VaultFile.open(path: path, system: system, whenLocked: whenLocked)
        try self.init(key: Data(file.key), file: file, fingerprints: fingerprints, droppedBytes: dropped)
    }

    private init(key: Data, file: VaultFile?, fingerprints: [Fingerprint], droppedBytes: Int) throws {
        let master = SymmetricKey(data: key)
        cipher = FormatPreservingCipher(
            key: try HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("zeropii-mock tokens".utf8), outputByteCount: 32))
        fingerprintKey = HMAC<SHA256>(
            key: try HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("zeropii-mock fingerprints".utf8), outputByteCount: 32))
        seen = Set(fingerprints)
        self.file = file
        self.droppedBytes = droppedBytes
    }

    /// Closes the data file, so that another vault may open it. Tokenizing a value the
    /// vault has not seen fails from then on; ``token(for:)`` still answers.
    public func close() {
        lock.withLock {
            closed = true
            file = nil
        }
    }

    /// How many distinct values the vault holds.
    public var count: Int { lock.withLock { seen.count } }

    /// The token of a value, without recording it.
    public func token(for value: String) -> String {
        cipher.encrypt(value)
    }

    /// Tokenizes `values` in order, recording new ones durably before returning. A
    /// value repeated within the call is new at most once.
    public func tokenize(_ values: [String]) throws -> [Entry] {
        let tokens = values.map(cipher.encrypt)
        let fingerprints = values.map(fingerprint)
        return try lock.withLock {
            var created: [Fingerprint] = []
            var flags: [Bool] = []
            for fingerprint in fingerprints {
                let isNew = seen.insert(fingerprint).inserted
                if isNew { created.append(fingerprint) }
                flags.append(isNew)
            }
            do {
                if closed && !created.isEmpty { throw VaultError.cannotWrite }
                try file?.append(created)
            } catch {
                for fingerprint in created { seen.remove(fingerprint) }
                throw error
            }
            return zip(tokens, flags).map { Entry(token: $0, exists: !$1, newlyCreated: $1) }
        }
    }

    private func fingerprint(_ value: String) -> Fingerprint {
        var hmac = fingerprintKey
        var text = value
        text.withUTF8 { hmac.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return hmac.finalize().withUnsafeBytes { Fingerprint($0.prefix(VaultFile.fingerprintSize)) }
    }
}
