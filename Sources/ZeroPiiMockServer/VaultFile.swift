import Foundation
import ZeroPiiCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The vault's data file: an append-only log that makes new mappings durable.
///
/// Layout: a header (`ZPVAULT1`, the 32-byte token key, a CRC-32 of the key), then one
/// record per request that created tokens: a 4-byte count, that many 16-byte value
/// fingerprints, and a CRC-32 of the record. No value is stored in readable form. A
/// record cut short by a crash (or with a bad checksum) ends the log: it is dropped and
/// the file truncated before new records are appended.
final class VaultFile {
    static let magic = Array("ZPVAULT1".utf8)
    static let fingerprintSize = 16

    private let descriptor: Int32
    let key: [UInt8]

    /// Opens (or creates) the file and returns it with every fingerprint it holds.
    static func open(path: String) throws -> (file: VaultFile, fingerprints: [Fingerprint], droppedBytes: Int) {
        let descriptor = Glibc_open(path)
        guard descriptor >= 0 else { throw VaultError.cannotOpen(errno: errno) }
        let contents = readAll(descriptor)
        if contents.isEmpty {
            var key = [UInt8](repeating: 0, count: 32)
            key.withUnsafeMutableBytes { SecureRandom.fill($0) }
            var header = magic + key
            withUnsafeBytes(of: CRC32.checksum(key).bigEndian) { header.append(contentsOf: $0) }
            let file = VaultFile(descriptor: descriptor, key: key)
            try file.appendDurably(header)
            syncDirectory(of: path)
            return (file, [], 0)
        }
        guard contents.count >= 44, Array(contents[0..<8]) == magic,
            UInt32(bigEndian: contents[40..<44].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }) == CRC32.checksum(contents[8..<40])
        else {
            close(descriptor)
            throw VaultError.notAVaultFile
        }
        let key = Array(contents[8..<40])
        var fingerprints: [Fingerprint] = []
        var offset = 44
        while offset + 4 <= contents.count {
            let count = Int(UInt32(bigEndian: contents[offset..<(offset + 4)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }))
            let end = offset + 4 + count * fingerprintSize + 4
            guard count > 0, count <= 1_000_000, end <= contents.count else { break }
            let stored = UInt32(bigEndian: contents[(end - 4)..<end].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
            guard stored == CRC32.checksum(contents[offset..<(end - 4)]) else { break }
            var position = offset + 4
            for _ in 0..<count {
                fingerprints.append(Fingerprint(contents[position..<(position + fingerprintSize)]))
                position += fingerprintSize
            }
            offset = end
        }
        let dropped = contents.count - offset
        if dropped > 0 {
            guard ftruncate(descriptor, off_t(offset)) == 0, fsync(descriptor) == 0 else {
                throw VaultError.cannotWrite(errno: errno)
            }
        }
        lseek(descriptor, 0, SEEK_END)
        return (VaultFile(descriptor: descriptor, key: key), fingerprints, dropped)
    }

    private init(descriptor: Int32, key: [UInt8]) {
        self.descriptor = descriptor
        self.key = key
    }

    deinit { close(descriptor) }

    /// Appends one record of new fingerprints and waits until it is on disk.
    func append(_ fingerprints: [Fingerprint]) throws {
        guard !fingerprints.isEmpty else { return }
        var record = [UInt8]()
        record.reserveCapacity(8 + fingerprints.count * Self.fingerprintSize)
        withUnsafeBytes(of: UInt32(fingerprints.count).bigEndian) { record.append(contentsOf: $0) }
        for fingerprint in fingerprints { fingerprint.append(to: &record) }
        withUnsafeBytes(of: CRC32.checksum(record).bigEndian) { record.append(contentsOf: $0) }
        try appendDurably(record)
    }

    private func appendDurably(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw VaultError.cannotWrite(errno: errno)
                }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw VaultError.cannotWrite(errno: errno) }
    }

    private static func Glibc_open(_ path: String) -> Int32 {
        #if canImport(Glibc)
        return Glibc.open(path, O_RDWR | O_CREAT | O_APPEND, 0o600)
        #else
        return Darwin.open(path, O_RDWR | O_CREAT | O_APPEND, 0o600)
        #endif
    }

    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        var contents = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        lseek(descriptor, 0, SEEK_SET)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            contents.append(contentsOf: chunk[0..<count])
        }
        return contents
    }

    /// Makes the file's directory entry durable too, for a newly created file.
    private static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        #if canImport(Glibc)
        let descriptor = Glibc.open(directory.isEmpty ? "." : directory, O_RDONLY)
        #else
        let descriptor = Darwin.open(directory.isEmpty ? "." : directory, O_RDONLY)
        #endif
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}

/// Why the vault file could not be used.
public enum VaultError: Error, CustomStringConvertible {
    /// The file could not be opened or created; `errno` says why.
    case cannotOpen(errno: Int32)
    /// A record could not be written or synced to disk; `errno` says why.
    case cannotWrite(errno: Int32)
    /// The file exists but does not start with a vault header.
    case notAVaultFile

    public var description: String {
        switch self {
        case .cannotOpen(let code): return "the vault file could not be opened (\(String(cString: strerror(code))))"
        case .cannotWrite(let code): return "the vault file could not be written (\(String(cString: strerror(code))))"
        case .notAVaultFile: return "the file is not a ZeroPii vault file (bad header)"
        }
    }
}

/// The first 16 bytes of HMAC-SHA256 of a value under the vault's key: how the vault
/// remembers that it has seen a value without keeping the value.
struct Fingerprint: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let array = Array(bytes)
        high = array[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = array[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    func append(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: high.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: low.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
