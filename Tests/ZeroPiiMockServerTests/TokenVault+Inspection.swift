import Foundation
import ZeroPiiLocking

@testable import ZeroPiiMockServer

/// What tests need of a vault that the server never does: stopping a write half-way, and
/// the index's page figures.
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
}
