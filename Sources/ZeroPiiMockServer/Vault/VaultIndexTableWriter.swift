/// Puts fingerprints into ``VaultIndex``'s table on disk in one pass from its first page
/// to its last: given fingerprints in order (``Fingerprint``'s order is that of their
/// home slots), it reads the table a chunk of ``chunkPageCount`` pages at a time, fills
/// the chunk's empty slots, and writes back the pages it changed, in page order, before
/// it moves on. Each page is read and written at most once a pass, whatever number of
/// fingerprints land in it. It merges the pending fingerprints into the table, and
/// builds the doubled table when the table grows.
///
/// Linear probing runs past a chunk's end: a fingerprint that finds no empty slot
/// before it is carried to the start of the next chunk, which is what the probe does.
/// What is carried past the last chunk the pass reads, and two cases that break the
/// order, are put in one page at a time after the pass (each is rare, and the table
/// stays correct whatever order slots are filled in): a probe that runs past the
/// table's last page goes on from the first, and a fingerprint that comes after the
/// pass has left its home (when growing reads the old table, which is in order only to
/// within a chunk).
final class VaultIndexTableWriter {
    static let chunkPageCount = 64

    private let file: VaultIndexFile
    private let pageCount: Int
    private let slotCount: Int
    /// Held pages that the pass changes are refreshed, so that lookups see them.
    private let cache: VaultIndexPageCache?
    /// A new table, all holes: its chunks are not read.
    private let startsEmpty: Bool
    private let buffer: UnsafeMutableRawPointer
    private var chunkStart = 0
    /// Pages in the chunk in ``buffer``; 0 before the first.
    private var chunkLength = 0
    private var isChanged = [Bool](repeating: false, count: VaultIndexTableWriter.chunkPageCount)
    /// Fingerprints that ran past the end of the chunk in the buffer.
    private var carried: [Fingerprint] = []
    /// Fingerprints put in after the pass: those carried past the last page, and those
    /// whose home the pass had left.
    private var outOfOrder: [(fingerprint: Fingerprint, fromSlot: Int)] = []
    /// Fingerprints put in slots (not counting any found there already).
    private(set) var addedCount = 0

    init(file: VaultIndexFile, pageCount: Int, cache: VaultIndexPageCache?, startsEmpty: Bool) {
        self.file = file
        self.pageCount = pageCount
        slotCount = pageCount * VaultIndexFile.slotsPerPage
        self.cache = cache
        self.startsEmpty = startsEmpty
        buffer = UnsafeMutableRawPointer.allocate(
            byteCount: Self.chunkPageCount * VaultIndexFile.pageSize, alignment: VaultIndexFile.pageSize)
    }

    deinit { buffer.deallocate() }

    func add(_ fingerprint: Fingerprint) throws {
        let home = fingerprint.homeSlot(amongSlots: slotCount)
        let page = home / VaultIndexFile.slotsPerPage
        if chunkLength > 0 && page < chunkStart {
            outOfOrder.append((fingerprint, home))
            return
        }
        if chunkLength == 0 || page >= chunkStart + chunkLength { try move(toChunkOf: page) }
        if !place(fingerprint, fromSlot: home - chunkStart * VaultIndexFile.slotsPerPage) { carried.append(fingerprint) }
    }

    /// Writes the last chunk, then puts in what ran past its end (from the next page on,
    /// or the first after the table's last) and what came out of order.
    func finish() throws {
        if chunkLength > 0 { try writeChunk() }
        let nextPage = chunkStart + chunkLength == pageCount ? 0 : chunkStart + chunkLength
        chunkLength = 0
        let remaining = carried.map { (fingerprint: $0, fromSlot: nextPage * VaultIndexFile.slotsPerPage) } + outOfOrder
        carried = []
        outOfOrder = []
        var heldPage = -1
        var heldPageChanged = false
        for (fingerprint, fromSlot) in remaining {
            var slot = fromSlot
            placing: while true {
                let page = slot / VaultIndexFile.slotsPerPage
                if page != heldPage {
                    if heldPageChanged { try write(heldPage, from: buffer) }
                    try file.readPages(from: page, count: 1, into: buffer)
                    heldPage = page
                    heldPageChanged = false
                }
                for inPage in (slot % VaultIndexFile.slotsPerPage)..<VaultIndexFile.slotsPerPage {
                    let bytes = buffer + inPage * VaultIndexFile.slotSize
                    let stored = Fingerprint(bytesAt: bytes)
                    if stored.isZero {
                        fingerprint.store(at: bytes)
                        heldPageChanged = true
                        addedCount += 1
                        break placing
                    }
                    if stored == fingerprint { break placing }
                }
                slot = (page + 1 == pageCount ? 0 : page + 1) * VaultIndexFile.slotsPerPage
            }
        }
        if heldPageChanged { try write(heldPage, from: buffer) }
    }

    /// Writes the chunk in the buffer and reads the one that holds `page`: the next one
    /// first while fingerprints are carried into it.
    private func move(toChunkOf page: Int) throws {
        while true {
            let next: Int
            if chunkLength > 0 {
                try writeChunk()
                next = carried.isEmpty ? page / Self.chunkPageCount * Self.chunkPageCount : chunkStart + chunkLength
            } else {
                next = page / Self.chunkPageCount * Self.chunkPageCount
            }
            chunkStart = next
            chunkLength = min(Self.chunkPageCount, pageCount - next)
            if startsEmpty {
                buffer.initializeMemory(as: UInt8.self, repeating: 0, count: chunkLength * VaultIndexFile.pageSize)
            } else {
                try file.readPages(from: chunkStart, count: chunkLength, into: buffer)
            }
            let incoming = carried
            carried = []
            for fingerprint in incoming where !place(fingerprint, fromSlot: 0) { carried.append(fingerprint) }
            if page < chunkStart + chunkLength { return }
        }
    }

    /// Puts `fingerprint` in the first empty slot from `fromSlot` of the chunk on; false
    /// when the chunk ends first.
    private func place(_ fingerprint: Fingerprint, fromSlot: Int) -> Bool {
        var slot = fromSlot
        let end = chunkLength * VaultIndexFile.slotsPerPage
        while slot < end {
            let page = slot / VaultIndexFile.slotsPerPage
            let bytes = buffer + page * VaultIndexFile.pageSize + (slot - page * VaultIndexFile.slotsPerPage) * VaultIndexFile.slotSize
            let stored = Fingerprint(bytesAt: bytes)
            if stored.isZero {
                fingerprint.store(at: bytes)
                isChanged[page] = true
                addedCount += 1
                return true
            }
            if stored == fingerprint { return true }
            slot += 1
        }
        return false
    }

    private func writeChunk() throws {
        for page in 0..<chunkLength where isChanged[page] {
            try write(chunkStart + page, from: buffer + page * VaultIndexFile.pageSize)
            isChanged[page] = false
        }
    }

    private func write(_ page: Int, from bytes: UnsafeMutableRawPointer) throws {
        try file.writePage(page, from: bytes)
        cache?.refresh(page, from: bytes)
    }
}
