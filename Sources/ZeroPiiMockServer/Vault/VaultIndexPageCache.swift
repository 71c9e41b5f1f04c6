/// The index pages held in memory: at most `limit` of them, whatever the size of the
/// index, so the vault's memory stays flat as it grows. A page not held is read from
/// the file when it is needed; to make room, the clock algorithm drops a page not used
/// since the hand last passed it.
///
/// Held pages are never changed here: new fingerprints reach the table through
/// ``VaultIndexTableWriter``, which writes pages itself and refreshes the held copies of
/// those it wrote, so a held page is always what the file has.
final class VaultIndexPageCache {
    let limit: Int
    private let memory: MappedMemory
    private let frames: UnsafeMutableRawPointer
    private var pageInFrame: [Int] = []
    private var frameOfPage: [Int: Int] = [:]
    private var wasUsed: [Bool] = []
    private var hand = 0
    /// Pages read from the file because they were not held.
    private(set) var misses = 0

    init(limit: Int) {
        precondition(limit > 0)
        self.limit = limit
        memory = MappedMemory(byteCount: limit * VaultIndexFile.pageSize)
        frames = memory.bytes
        frameOfPage.reserveCapacity(limit)
    }

    /// How many pages are held now; never more than ``limit``.
    var heldPageCount: Int { frameOfPage.count }

    /// The bytes of slot page `page` of `file`, valid until the next call.
    func page(_ page: Int, of file: VaultIndexFile) throws -> UnsafeRawPointer {
        if let frame = frameOfPage[page] {
            wasUsed[frame] = true
            return UnsafeRawPointer(frames + frame * VaultIndexFile.pageSize)
        }
        let frame = freeFrame()
        let bytes = frames + frame * VaultIndexFile.pageSize
        try file.readPages(from: page, count: 1, into: bytes)
        misses += 1
        pageInFrame[frame] = page
        frameOfPage[page] = frame
        wasUsed[frame] = true
        return UnsafeRawPointer(bytes)
    }

    /// Replaces the held copy of `page`, if there is one, with `bytes`, which were just
    /// written to the file.
    func refresh(_ page: Int, from bytes: UnsafeRawPointer) {
        guard let frame = frameOfPage[page] else { return }
        (frames + frame * VaultIndexFile.pageSize).copyMemory(from: bytes, byteCount: VaultIndexFile.pageSize)
    }

    /// Forgets every page.
    func discard() {
        frameOfPage.removeAll(keepingCapacity: true)
        pageInFrame.removeAll(keepingCapacity: true)
        wasUsed.removeAll(keepingCapacity: true)
        hand = 0
    }

    private func freeFrame() -> Int {
        if pageInFrame.count < limit {
            pageInFrame.append(-1)
            wasUsed.append(false)
            return pageInFrame.count - 1
        }
        while wasUsed[hand] {
            wasUsed[hand] = false
            hand = (hand + 1) % limit
        }
        let frame = hand
        hand = (hand + 1) % limit
        frameOfPage[pageInFrame[frame]] = nil
        pageInFrame[frame] = -1
        return frame
    }
}
