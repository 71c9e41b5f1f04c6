/// The index pages held in memory: at most `limit` of them, whatever the size of the
/// index, so the vault's memory stays flat as it grows. A page not held is read from
/// the file when it is needed; to make room, the clock algorithm picks a page not used
/// since the hand last passed it, and writes it back first if it was changed.
final class VaultIndexPageCache {
    let limit: Int
    private let frames: UnsafeMutableRawPointer
    private var pageInFrame: [Int] = []
    private var frameOfPage: [Int: Int] = [:]
    private var isChanged: [Bool] = []
    private var wasUsed: [Bool] = []
    private var hand = 0
    /// Pages read from the file because they were not held.
    private(set) var misses = 0

    init(limit: Int) {
        precondition(limit > 0)
        self.limit = limit
        frames = UnsafeMutableRawPointer.allocate(byteCount: limit * VaultIndexFile.pageSize, alignment: VaultIndexFile.pageSize)
        frameOfPage.reserveCapacity(limit)
    }

    deinit { frames.deallocate() }

    /// How many pages are held now; never more than ``limit``.
    var heldPageCount: Int { frameOfPage.count }

    /// The bytes of slot page `page` of `file`, valid until the next call, and the frame
    /// that holds them (for ``markChanged(frame:)``).
    func page(_ page: Int, of file: VaultIndexFile) throws -> (bytes: UnsafeMutableRawPointer, frame: Int) {
        if let frame = frameOfPage[page] {
            wasUsed[frame] = true
            return (frames + frame * VaultIndexFile.pageSize, frame)
        }
        let frame = try freeFrame(writingBackTo: file)
        let bytes = frames + frame * VaultIndexFile.pageSize
        try file.readPages(from: page, count: 1, into: bytes)
        misses += 1
        pageInFrame[frame] = page
        frameOfPage[page] = frame
        isChanged[frame] = false
        wasUsed[frame] = true
        return (bytes, frame)
    }

    func markChanged(frame: Int) {
        isChanged[frame] = true
    }

    /// Writes every changed page back to `file`, in file order; they stay held.
    func writeBack(to file: VaultIndexFile) throws {
        let changed = frameOfPage.filter { isChanged[$0.value] }.sorted { $0.key < $1.key }
        for (page, frame) in changed {
            try file.writePage(page, from: frames + frame * VaultIndexFile.pageSize)
            isChanged[frame] = false
        }
    }

    /// Forgets every page without writing any back.
    func discard() {
        frameOfPage.removeAll(keepingCapacity: true)
        pageInFrame.removeAll(keepingCapacity: true)
        isChanged.removeAll(keepingCapacity: true)
        wasUsed.removeAll(keepingCapacity: true)
        hand = 0
    }

    private func freeFrame(writingBackTo file: VaultIndexFile) throws -> Int {
        if pageInFrame.count < limit {
            pageInFrame.append(-1)
            isChanged.append(false)
            wasUsed.append(false)
            return pageInFrame.count - 1
        }
        while wasUsed[hand] {
            wasUsed[hand] = false
            hand = (hand + 1) % limit
        }
        let frame = hand
        hand = (hand + 1) % limit
        if isChanged[frame] {
            try file.writePage(pageInFrame[frame], from: frames + frame * VaultIndexFile.pageSize)
            isChanged[frame] = false
        }
        frameOfPage[pageInFrame[frame]] = nil
        pageInFrame[frame] = -1
        return frame
    }
}
