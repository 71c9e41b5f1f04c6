import Foundation
import ZeroPiiCrypto
import ZeroPiiLocking

/// The mock server's vault: deterministic, unique, format-preserving tokens, and a
/// memory of which values it has seen (for `exists` and `newlyCreated`).
///
/// Tokens come from a format-preserving cipher under the vault's key, so a value gets
/// the same token forever and two values never share one. With a data file, the key
/// lives in the file and every new value is written and fsynced, one record per
/// request, before the answer that reveals its token is returned; which values the
/// vault has seen is looked up in an index file beside it, with a bounded part of it in
/// memory, so the vault's memory does not grow with the number of values. Check-and-
/// insert happens under one lock, so when many requests bring the same new value at
/// once, exactly one of them sees `newlyCreated`.
public final class TokenVault: @unchecked Sendable {
    // Sendable: the index and the file, which are not Sendable, are reached only inside
    // `state`'s lock; the cipher and keys are immutable.
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
    /// The token function this vault's tokens come from.
    package let format: VaultFormat
    private let fingerprintKey: HMAC<SHA256>
    /// The index, the file and whether they are closed: internal, so that tests can stop
    /// a write half-way as a crash would (`TokenVault+Crash.swift` in the tests).
    let state: Locked<State>
    /// Bytes of a torn last record dropped when the file was opened.
    public let droppedBytes: Int
    /// Whether opening made the data file: a new vault, whose tokens differ from those of
    /// any other. False for a vault in memory, and when another process made the file
    /// first.
    public let createdFile: Bool
    /// The permission bits the data file had when other users could read or change it;
    /// it is owner-only (0600) now. Nil when it was already, and for a vault in memory.
    public let tightenedFromMode: UInt16?
    /// How the index file was found when the vault opened; nil for a vault in memory, or
    /// when the index is held in memory (``indexUnwritable``).
    let indexRecovery: VaultIndex.Recovery?
    /// Why the vault's index is held in memory: its file could not be written when the
    /// vault opened (a full disk, most likely). The vault then serves every value it
    /// holds, and new values are written to the data file as ever, which fails for as
    /// long as the disk has no room; the next start rebuilds the index file. Nil when the
    /// index is on disk, and for a vault in memory.
    public let indexUnwritable: VaultError?

    /// A vault in memory with a fresh random key.
    public convenience init() {
        self.init(inMemoryWith: .current)
    }

    /// A vault in memory with a fresh random key and the token function of `format`, for
    /// the benchmarks that compare formats.
    package convenience init(inMemoryWith format: VaultFormat) {
        try! self.init(key: SecureRandom.bytes(count: 32), format: format, file: nil, index: MemoryFingerprintIndex(), recovery: nil)
    }

    /// A vault kept in `path` (and its index in `path.index`), created when missing, and
    /// held by this vault until ``close()`` or its end: another process cannot open it
    /// meanwhile.
    ///
    /// Opening reads the whole file once, in bounded memory, to check it and to bring the
    /// index up to date (or rebuild it, when it is missing, stale or damaged).
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

    /// A vault whose files go through `system`, for tests that inject failures, with the
    /// index's sizes in `indexOptions`.
    convenience init(
        path: String, system: any VaultFileSystem, whenLocked: (@Sendable () -> Void)? = nil, indexOptions: VaultIndex.Options = .standard
    ) throws {
        let file = try VaultFile.open(path: path, system: system, whenLocked: whenLocked)
        do {
            let (index, recovery) = try VaultIndex.open(beside: file, system: system, options: indexOptions)
            try self.init(key: Data(file.key), format: file.format, file: file, index: index, recovery: recovery)
        } catch let error as VaultError where error == .cannotWrite || error == .cannotOpen {
            // The log is whole and readable; only the index cannot be written. Serve what
            // the vault holds from an index in memory rather than refuse to start, and
            // give the index file's space back to the log.
            unlink(VaultIndex.path(forVault: path))
            unlink(VaultIndex.path(forVault: path) + ".growing")
            let index = MemoryFingerprintIndex()
            try file.recover { record in
                for fingerprint in record.fingerprints { index.insert(fingerprint) }
            }
            try self.init(key: Data(file.key), format: file.format, file: file, index: index, recovery: nil, indexUnwritable: error)
        }
    }

    private init(
        key: Data, format: VaultFormat, file: VaultFile?, index: any FingerprintIndex, recovery: VaultIndex.Recovery?,
        indexUnwritable: VaultError? = nil
    ) throws {
        let master = SymmetricKey(data: key)
        self.format = format
        cipher = try format.cipher(vaultKey: master)
        fingerprintKey = HMAC<SHA256>(
            key: try HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("zeropii-mock fingerprints".utf8), outputByteCount: 32))
        state = Locked(State(index: index, file: file))
        droppedBytes = file?.droppedBytes ?? 0
        createdFile = file?.created ?? false
        tightenedFromMode = file?.tightenedFromMode
        indexRecovery = recovery
        self.indexUnwritable = indexUnwritable
    }

    deinit { state.withLock { $0.closeFiles() } }

    /// Closes the data file and its index, so that another vault may open them.
    /// Tokenizing fails from then on (for a vault in memory: tokenizing a value it has
    /// not seen); ``token(for:)`` still answers.
    public func close() {
        state.withLock { $0.closeFiles() }
    }

    /// How many distinct values the vault holds.
    public var count: Int { state.withLock { $0.index.count } }

    /// The token of a value, without recording it.
    public func token(for value: String) -> String {
        cipher.encrypt(value)
    }

    /// Tokenizes `values` in order, recording new ones durably before returning. A
    /// value repeated within the call is new at most once.
    public func tokenize(_ values: [String]) throws -> [Entry] {
        let tokens = values.map(cipher.encrypt)
        let flags = try record(values)
        return zip(tokens, flags).map { Entry(token: $0, exists: !$1, newlyCreated: $1) }
    }

    /// Records `values` as ``tokenize(_:)`` does, without computing their tokens, and
    /// returns which of them were new. Tests of the index use it, since the tokens are
    /// most of the cost of tokenizing.
    func record(_ values: [String]) throws -> [Bool] {
        let fingerprints = values.map(fingerprint)
        return try state.withLock { state in
            let (flags, created) = try Self.logNewFingerprints(fingerprints, in: &state)
            for fingerprint in created { try state.index.insert(fingerprint) }
            return flags
        }
    }

    /// The first half of recording, with the lock held: which fingerprints are new (a
    /// repeat within the call is new once), and the log's durable record of them. The
    /// index is grown first, so that it then covers exactly the log as it is; the caller
    /// inserts the new fingerprints into it.
    static func logNewFingerprints(_ fingerprints: [Fingerprint], in state: inout State) throws -> (flags: [Bool], created: [Fingerprint]) {
        var created: [Fingerprint] = []
        var createdInThisCall = Set<Fingerprint>()
        var flags: [Bool] = []
        for fingerprint in fingerprints {
            let isNew = try !state.index.contains(fingerprint) && createdInThisCall.insert(fingerprint).inserted
            if isNew { created.append(fingerprint) }
            flags.append(isNew)
        }
        if !created.isEmpty {
            if state.closed { throw VaultError.cannotWrite }
            try state.index.reserveCapacity(adding: created.count, loggedUpTo: state.file?.position ?? .empty)
            try state.file?.append(created)
        }
        return (flags, created)
    }

    struct State {
        let index: any FingerprintIndex
        var file: VaultFile?
        var closed = false

        /// The index's work is kept (a checkpoint) before the file's lock is let go, since
        /// the lock covers both files.
        mutating func closeFiles() {
            if let diskIndex = index as? VaultIndex, let file { diskIndex.close(covering: file.position) }
            closed = true
            file = nil
        }
    }

    func fingerprint(_ value: String) -> Fingerprint {
        var hmac = fingerprintKey
        var text = value
        text.withUTF8 { hmac.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return hmac.finalize().withUnsafeBytes { Fingerprint($0.prefix(VaultFile.fingerprintSize)) }
    }
}
