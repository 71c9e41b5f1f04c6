import Foundation
import ZeroPiiLocking

@testable import ZeroPiiMockServer

/// What tests need of a vault that the server never does: stopping a write half-way, a
/// checkpoint on demand, and the index's figures.
extension TokenVault {
    /// Tokenizes as `tokenize(_:)` would, but stops as a crash would between the log's
    /// write and the index's: the record is durable, the index is closed with nothing more
    /// written back, and the vault takes no more writes. Always throws
    /// `VaultError.cannotWrite`, as the interrupted call would have failed.
    func tokenizeStoppingAfterLogWrite(_ values: [String]) throws {
        let fingerprints = values.map(fingerprint)
        try state.withLock { state in
            _ = try Self.logNewFingerprints(fingerprints, in: &state)
            (state.index as? VaultIndex)?.abandon()
            state.closed = true
            state.file = nil
        }
        throw VaultError.cannotWrite
    }

    /// The index's page figures: pages held in memory, the most it may hold, and pages in
    /// the table. Nil for a vault in memory.
    var indexFigures: (heldPages: Int, pageLimit: Int, tablePages: Int)? {
        state.withLock { state in
            (state.index as? VaultIndex).map { ($0.heldPageCount, $0.cachedPageLimit, $0.tablePageCount) }
        }
    }

    /// The index's memory figures: fingerprints pending and their bound, the filter's
    /// bytes, and pages read from the index file for lookups. Nil for a vault in memory.
    var indexMemory: (pending: Int, pendingLimit: Int, filterBytes: Int, pageReads: Int)? {
        state.withLock { state in
            (state.index as? VaultIndex).map { ($0.pendingCount, $0.pendingLimit, $0.filterByteCount, $0.pageReadCount) }
        }
    }

    /// Whether the index's filter may hold `value` (it must, for every value recorded).
    func indexFilterMayContain(_ value: String) -> Bool {
        let fingerprint = self.fingerprint(value)
        return state.withLock { state in (state.index as? VaultIndex)?.filterMayContain(fingerprint) ?? false }
    }

    /// Merges the pending fingerprints into the index's table and checkpoints it as
    /// covering the whole log.
    func checkpointIndex() throws {
        try state.withLock { state in
            guard let index = state.index as? VaultIndex, let file = state.file else { return }
            try index.checkpoint(covering: file.position)
        }
    }
}
