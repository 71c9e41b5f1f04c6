import Foundation

@testable import ZeroPiiSDK

/// What tests look at in the coalescer that the SDK never needs to.
extension TokenizeCoalescer {
    /// How many distinct values are gathering for the next request, for tests that close
    /// the window by hand once everyone has joined.
    var gatheringCount: Int { state.withLock { $0.gathering.count } }

    /// How many distinct values are waiting or in flight.
    var slotCount: Int { state.withLock { $0.slots.count } }

    /// How many callers have joined a slot so far, duplicates included, for tests that
    /// wait until every caller is in before they close the window.
    var joinCount: Int { state.withLock { $0.joins } }
}
