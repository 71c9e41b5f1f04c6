import Foundation
import Testing
import ZeroPiiLocking
import ZeroPiiWire

@testable import ZeroPiiMockServer

/// The record of used request ids: a replay is refused while it could pass the
/// staleness check, ids are forgotten once it could not, and memory stays within the
/// capacity however fast requests come, at the cost of refusing requests older than
/// what is remembered.
struct ReplayCacheTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let startSecond = Int64(1_700_000_000)

    static func id() -> String { UUID().uuidString.lowercased() }

    @Test func aReplayIsRefusedAsLongAsItCouldPassTheStalenessCheck() {
        let cache = ReplayCache()
        let rid = Self.id()
        #expect(cache.claim(rid, timestamp: Self.startSecond, now: Self.start) == .claimed)
        #expect(cache.claim(rid, timestamp: Self.startSecond, now: Self.start) == .alreadyUsed)
        // 300 s after its time the request still passes the staleness check: still refused.
        #expect(cache.claim(rid, timestamp: Self.startSecond, now: Self.start + 300) == .alreadyUsed)
        // A request sent 299 s in the future stays remembered until 300 s after its own time.
        let ahead = Self.id()
        #expect(cache.claim(ahead, timestamp: Self.startSecond + 299, now: Self.start) == .claimed)
        #expect(cache.claim(ahead, timestamp: Self.startSecond + 299, now: Self.start + 599) == .alreadyUsed)
    }

    @Test func idsAreForgottenOnceTheStalenessCheckRefusesThem() {
        let cache = ReplayCache()
        for offset in 0..<100 {
            #expect(cache.claim(Self.id(), timestamp: Self.startSecond + Int64(offset), now: Self.start + TimeInterval(offset)) == .claimed)
        }
        #expect(cache.count == 100)
        // At start + 350 s, the seconds before start + 50 are past their reach.
        #expect(cache.claim(Self.id(), timestamp: Self.startSecond + 350, now: Self.start + 350) == .claimed)
        #expect(cache.count == 51)
        #expect(cache.claim(Self.id(), timestamp: Self.startSecond + 1_000, now: Self.start + 1_000) == .claimed)
        #expect(cache.count == 1)
    }

    @Test func aFullRecordDropsItsOldestSecondAndRefusesRequestsThatOld() {
        let cache = ReplayCache(capacity: 10)
        // Four ids in each of three seconds: the third second overflows the ten.
        var kept: [(String, Int64)] = []
        for second in 0..<3 {
            for _ in 0..<4 {
                let rid = Self.id()
                let timestamp = Self.startSecond + Int64(second)
                #expect(cache.claim(rid, timestamp: timestamp, now: Self.start + 3) == .claimed)
                kept.append((rid, timestamp))
            }
        }
        #expect(cache.count == 8)
        // The oldest second is the floor now: its requests, replayed or new, are refused as stale.
        #expect(cache.claim(kept[0].0, timestamp: kept[0].1, now: Self.start + 3) == .beyondMemory)
        #expect(cache.claim(Self.id(), timestamp: Self.startSecond, now: Self.start + 3) == .beyondMemory)
        #expect(cache.claim(Self.id(), timestamp: Self.startSecond - 5, now: Self.start + 3) == .beyondMemory)
        // The later seconds are still remembered, and newer requests are taken.
        #expect(cache.claim(kept[4].0, timestamp: kept[4].1, now: Self.start + 3) == .alreadyUsed)
        #expect(cache.claim(kept[11].0, timestamp: kept[11].1, now: Self.start + 3) == .alreadyUsed)
        #expect(cache.claim(Self.id(), timestamp: Self.startSecond + 3, now: Self.start + 3) == .claimed)
    }

    /// 30,000 requests over 300 seconds against a record of 10,000: the record never
    /// holds more than its capacity, and every id it still holds is refused again.
    @Test func memoryStaysWithinTheCapacityUnderABurst() {
        let cache = ReplayCache(capacity: 10_000)
        var refusedAsOld = 0
        var lastIDs: [String] = []
        for index in 0..<30_000 {
            let rid = Self.id()
            // Each 100 requests come with the next second's time.
            let timestamp = Self.startSecond + Int64(index / 100)
            switch cache.claim(rid, timestamp: timestamp, now: Self.start + 300) {
            case .claimed: break
            case .beyondMemory: refusedAsOld += 1
            case .alreadyUsed: Issue.record("a fresh id was taken for a replay")
            }
            if index >= 29_900 { lastIDs.append(rid) }
        }
        #expect(cache.count <= 10_000)
        #expect(refusedAsOld == 0, "every request was newer than the dropped seconds")
        for rid in lastIDs {
            #expect(cache.claim(rid, timestamp: Self.startSecond + 299, now: Self.start + 300) == .alreadyUsed)
        }
    }

    @Test func ofManyClaimsOfOneIDAtOnceExactlyOneWins() {
        let cache = ReplayCache()
        let rid = Self.id()
        let winners = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            if cache.claim(rid, timestamp: Self.startSecond, now: Self.start) == .claimed { winners.withLock { $0 += 1 } }
        }
        #expect(winners.withLock { $0 } == 1)
    }
}
