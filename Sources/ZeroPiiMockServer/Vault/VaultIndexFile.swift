#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The index's file: a header page (``VaultIndexHeader``), then slot pages read and
/// written whole with `pread`/`pwrite`. It is not memory-mapped, because mapped pages
/// that have been touched count towards the process's resident memory, and the point
/// of the index is that they do not.
///
/// A slot page holds 255 slots of one fingerprint each (16 bytes, all zeros when
/// empty), then its own page number and a checksum of both (8 bytes each), so that a
/// page that is damaged, or written where another belongs, is noticed when it is read.
/// A page of nothing but zeros is a page never written (the file is sized with
/// `ftruncate`, and holes read as zeros), and is empty.
///
/// Durability order: before the first slot page is written after the header said
/// "clean", the header is rewritten without that flag and synced, so that a crash
/// while pages are half written leaves a header that says so. A checkpoint syncs the
/// pages first and then writes the clean header and syncs again.
final class VaultIndexFile {
    static let pageSize = 4096
    static let slotSize = 16
    static let slotsPerPage = 255
    private static let trailerOffset = slotsPerPage * slotSize

    private(set) var path: String
    private var descriptor: Int32
    private let system: any VaultFileSystem
    /// The header as it is on disk.
    private(set) var header: VaultIndexHeader

    private init(path: String, descriptor: Int32, system: any VaultFileSystem, header: VaultIndexHeader) {
        self.path = path
        self.descriptor = descriptor
        self.system = system
        self.header = header
    }

    deinit { close() }

    /// Closes the file without writing anything more.
    func close() {
        if descriptor >= 0 { _ = systemClose(descriptor) }
        descriptor = -1
    }

    /// A new, empty index file at `path`, replacing whatever was there, owner-only.
    static func create(path: String, system: any VaultFileSystem, header: VaultIndexHeader) throws -> VaultIndexFile {
        // Whatever is at the name goes first (the vault's lock keeps other processes out),
        // and the new file is made there, never through a link: a link planted at the
        // index's name would have the index written over the file it points to.
        guard unlink(path) == 0 || errno == ENOENT else { throw VaultError.cannotOpen(path, errno: errno) }
        let descriptor = VaultFile.systemOpen(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw VaultError.cannotOpen(path, errno: errno) }
        let file = VaultIndexFile(path: path, descriptor: descriptor, system: system, header: header)
        guard ftruncate(descriptor, off_t((header.pageCount + 1) * pageSize)) == 0 else {
            throw VaultError.cannotWrite(path, errno: errno)
        }
        var unclean = header
        unclean.isClean = false
        try file.writeHeader(unclean)
        return file
    }

    /// The index file at `path` as it is, if its header is an index header whose size
    /// matches the file; the caller decides whether its contents can be used.
    static func open(path: String, system: any VaultFileSystem) throws -> VaultIndexFile {
        let descriptor = VaultFile.systemOpen(path, O_RDWR | O_NOFOLLOW)
        guard descriptor >= 0 else { throw errno == ENOENT ? VaultIndex.RebuildReason.missing : .unreadable }
        var page = [UInt8](repeating: 0, count: pageSize)
        let got = page.withUnsafeMutableBytes { system.readAt(descriptor, $0.baseAddress!, pageSize, 0) }
        guard got == pageSize, let header = page.withUnsafeBytes({ VaultIndexHeader(decoding: $0) }) else {
            _ = systemClose(descriptor)
            throw VaultIndex.RebuildReason.notAnIndex
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, header.pageCount > 0, Int(status.st_size) == (header.pageCount + 1) * pageSize else {
            _ = systemClose(descriptor)
            throw VaultIndex.RebuildReason.wrongSize
        }
        return VaultIndexFile(path: path, descriptor: descriptor, system: system, header: header)
    }

    /// Reads `count` slot pages from page `first` on into `buffer`, checking each.
    func readPages(from first: Int, count: Int, into buffer: UnsafeMutableRawPointer) throws {
        let size = count * Self.pageSize
        var done = 0
        while done < size {
            let got = system.readAt(descriptor, buffer + done, size - done, (first + 1) * Self.pageSize + done)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw VaultError.cannotRead(path, errno: got == 0 ? EIO : errno) }
            done += got
        }
        for index in 0..<count where !Self.isIntact(buffer + index * Self.pageSize, number: first + index) {
            throw VaultError.damaged(path, offset: (first + index + 1) * Self.pageSize)
        }
    }

    /// Writes one slot page (stamping its number and checksum into `page` first).
    func writePage(_ number: Int, from page: UnsafeMutableRawPointer) throws {
        if header.isClean {
            var unclean = header
            unclean.isClean = false
            try writeHeader(unclean)
            try synchronize()
        }
        (page + Self.trailerOffset).storeBytes(of: UInt64(number).bigEndian, as: UInt64.self)
        (page + Self.trailerOffset + 8).storeBytes(of: Self.checksum(page, number: number).bigEndian, as: UInt64.self)
        try writeFully(page, count: Self.pageSize, at: (number + 1) * Self.pageSize)
    }

    /// Makes every page written so far durable, then records `clean` as the header.
    func checkpoint(_ clean: VaultIndexHeader) throws {
        try synchronize()
        var header = clean
        header.isClean = true
        try writeHeader(header)
        try synchronize()
    }

    /// Gives the file the name `newPath` (replacing what had it) and makes that durable.
    func move(to newPath: String) throws {
        guard rename(path, newPath) == 0 else { throw VaultError.cannotWrite(newPath, errno: errno) }
        path = newPath
        VaultFile.syncDirectory(of: newPath)
    }

    /// The file's size in bytes.
    var size: Int { (header.pageCount + 1) * Self.pageSize }

    private func writeHeader(_ newHeader: VaultIndexHeader) throws {
        var page = newHeader.encoded()
        page.append(contentsOf: repeatElement(0, count: Self.pageSize - page.count))
        try page.withUnsafeBytes { try writeFully($0.baseAddress!, count: Self.pageSize, at: 0) }
        header = newHeader
    }

    private func writeFully(_ bytes: UnsafeRawPointer, count: Int, at offset: Int) throws {
        var done = 0
        while done < count {
            let written = system.writeAt(descriptor, bytes + done, count - done, offset + done)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw VaultError.cannotWrite(path, errno: written == 0 ? EIO : errno) }
            done += written
        }
    }

    private func synchronize() throws {
        guard system.synchronize(descriptor) == 0 else { throw VaultError.cannotWrite(path, errno: errno) }
    }

    /// Whether a page read from disk is one this file wrote at `number`, or was never
    /// written at all.
    private static func isIntact(_ page: UnsafeMutableRawPointer, number: Int) -> Bool {
        let storedNumber = UInt64(bigEndian: (page + trailerOffset).load(as: UInt64.self))
        let storedChecksum = UInt64(bigEndian: (page + trailerOffset + 8).load(as: UInt64.self))
        if storedNumber == UInt64(number) && storedChecksum == checksum(page, number: number) { return true }
        return UnsafeRawBufferPointer(start: page, count: pageSize).allSatisfy { $0 == 0 }
    }

    /// A fast 64-bit checksum of a page's slots and number (the mixing of xxHash64): it
    /// catches accidents, not attackers, and it runs on every page read and written.
    private static func checksum(_ page: UnsafeRawPointer, number: Int) -> UInt64 {
        let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
        let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = lane &+ word &* prime2
            return ((mixed << 31) | (mixed >> 33)) &* prime1
        }
        var first = UInt64(number) &+ prime1
        var second = prime2
        var offset = 0
        while offset < trailerOffset {
            first = round(first, UInt64(littleEndian: page.load(fromByteOffset: offset, as: UInt64.self)))
            second = round(second, UInt64(littleEndian: page.load(fromByteOffset: offset + 8, as: UInt64.self)))
            offset += 16
        }
        var hash = first ^ ((second << 17) | (second >> 47))
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        return hash
    }
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(descriptor)
    #else
    return Darwin.close(descriptor)
    #endif
}
