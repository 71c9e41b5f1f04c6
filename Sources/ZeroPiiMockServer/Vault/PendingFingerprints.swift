/// New fingerprints that ``VaultIndex`` holds in memory until it merges them into its
/// table, in one pass from the first page to the last, when there are ``limit`` of
/// them or the table grows. One pass writes each page at most once, however many new
/// fingerprints land in it; putting each one in its page as it came wrote a page back
/// for nearly every new value once the table outgrew the page cache.
///
/// They are kept in order (``Fingerprint``'s, which is the order of their home slots),
/// which is the order the merge needs: a sorted array of up to ``limit`` fingerprints,
/// 16 bytes each, allocated once, and a set of the most recent ones, merged into the
/// array whenever it reaches ``recentLimit``, so that the array is not shifted for
/// every insert. Lookups search both.
final class PendingFingerprints {
    /// The most fingerprints held; the caller merges them into the table before this
    /// many would be passed.
    let limit: Int
    /// The most fingerprints in ``recent`` before they are moved into the sorted array.
    let recentLimit: Int
    private let memory: MappedMemory
    private let sorted: UnsafeMutablePointer<Fingerprint>
    private var sortedCount = 0
    private var recent = Set<Fingerprint>()

    init(limit: Int) {
        precondition(limit > 0)
        self.limit = limit
        recentLimit = min(65_536, max(1, limit / 8))
        // The pages the array does not reach yet take no memory.
        memory = MappedMemory(byteCount: limit * MemoryLayout<Fingerprint>.stride)
        sorted = memory.bytes.bindMemory(to: Fingerprint.self, capacity: limit)
    }

    var count: Int { sortedCount + recent.count }
    var isEmpty: Bool { count == 0 }

    func contains(_ fingerprint: Fingerprint) -> Bool {
        if recent.contains(fingerprint) { return true }
        let index = firstIndex(notBelow: fingerprint)
        return index < sortedCount && sorted[index] == fingerprint
    }

    /// Adds a fingerprint that is not held yet; there must be room (``count`` below
    /// ``limit``).
    func insert(_ fingerprint: Fingerprint) {
        precondition(count < limit)
        recent.insert(fingerprint)
        if recent.count >= recentLimit { sortRecent() }
    }

    /// Every fingerprint held, in order.
    func inOrder() -> UnsafeBufferPointer<Fingerprint> {
        sortRecent()
        return UnsafeBufferPointer(start: sorted, count: sortedCount)
    }

    func removeAll() {
        sortedCount = 0
        recent.removeAll(keepingCapacity: true)
    }

    /// Merges ``recent`` into the sorted array, from the back, in place.
    private func sortRecent() {
        guard !recent.isEmpty else { return }
        let incoming = recent.sorted()
        recent.removeAll(keepingCapacity: true)
        var kept = sortedCount - 1
        var added = incoming.count - 1
        var target = sortedCount + incoming.count - 1
        while added >= 0 {
            if kept >= 0 && incoming[added] < sorted[kept] {
                (sorted + target).initialize(to: sorted[kept])
                kept -= 1
            } else {
                (sorted + target).initialize(to: incoming[added])
                added -= 1
            }
            target -= 1
        }
        sortedCount += incoming.count
    }

    /// The position of the first fingerprint in the sorted array that is not below
    /// `fingerprint` (``sortedCount`` when there is none).
    private func firstIndex(notBelow fingerprint: Fingerprint) -> Int {
        var low = 0
        var high = sortedCount
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < fingerprint { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: Figures for tests

    /// How many of ``count`` are in the sorted array (the rest are recent).
    var sortedArrayCount: Int { sortedCount }
}
