import Foundation
import Testing

@testable import ZeroPiiCrypto

#if canImport(Glibc)
import Glibc
#endif

/// The pool of random bytes for values sent in the clear (``PublicRandomPool``): each
/// byte is handed out once, across refills and threads, and a forked child never gets
/// the bytes its parent will.
struct PublicRandomPoolTests {
    static func draw(_ count: Int, from pool: PublicRandomPool) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { pool.fill($0) }
        return bytes
    }

    @Test func drawsAreNeverRepeatedAcrossRefills() {
        let pool = PublicRandomPool()
        #if canImport(Glibc)
        #expect(pool.isPooling)
        #endif
        // 20,000 request ids and 44-byte salts and IVs: about 140 refills of the page.
        var seen = Set<[UInt8]>()
        for index in 0..<20_000 {
            #expect(seen.insert(Self.draw(index % 2 == 0 ? 16 : 44, from: pool)).inserted)
        }
        // Every byte value turns up, about equally often (a loose bound: each of the 256
        // values has an expected count of about 2,344 here).
        var histogram = [Int](repeating: 0, count: 256)
        for value in seen { for byte in value { histogram[Int(byte)] += 1 } }
        #expect(histogram.min()! > 1_900 && histogram.max()! < 2_800, "\(histogram.min()!)...\(histogram.max()!)")
    }

    @Test func drawsOnManyThreadsAtOnceAreAllDifferent() {
        let pool = PublicRandomPool()
        let results = LockedValues()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var mine: [[UInt8]] = []
            for _ in 0..<3_000 { mine.append(Self.draw(16, from: pool)) }
            results.append(mine)
        }
        let all = results.values
        #expect(all.count == 24_000)
        #expect(Set(all).count == all.count)
    }

    @Test func largeDrawsAndEmptyOnesWork() {
        let pool = PublicRandomPool()
        let large = Self.draw(PublicRandomPool.capacity + 100, from: pool)
        #expect(large.count == PublicRandomPool.capacity + 100)
        #expect(Set(large).count > 200)
        #expect(Self.draw(PublicRandomPool.capacity + 100, from: pool) != large)
        #expect(Self.draw(0, from: pool) == [])
    }

    #if canImport(Glibc)
    /// Without the page being wiped on fork, the child would hand out exactly the bytes
    /// its parent hands out next: the same salt and IV in two processes.
    @Test func aForkedChildDrawsOtherBytesThanItsParent() throws {
        let pool = PublicRandomPool()
        _ = Self.draw(16, from: pool)  // bytes left in the page when the process forks
        let count = 32
        let childBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 8)
        defer { childBytes.deallocate() }
        var descriptors: [Int32] = [-1, -1]
        try #require(pipe(&descriptors) == 0)
        // Everything the child runs was used above, so it needs no allocation or type set-up.
        pool.fill(childBytes)
        let child = fork()
        try #require(child >= 0)
        if child == 0 {
            pool.fill(childBytes)
            _ = write(descriptors[1], childBytes.baseAddress, count)
            _exit(0)
        }
        close(descriptors[1])
        defer { close(descriptors[0]) }
        let parentBytes = Self.draw(count, from: pool)

        // The child's bytes, within ten seconds (a hung child fails the test, not the run).
        var received = [UInt8](repeating: 0, count: count)
        var readCount = 0
        var waiting = pollfd(fd: descriptors[0], events: Int16(POLLIN), revents: 0)
        while readCount < count, poll(&waiting, 1, 10_000) > 0 {
            let got = received.withUnsafeMutableBytes { read(descriptors[0], $0.baseAddress! + readCount, count - readCount) }
            if got <= 0 { break }
            readCount += got
        }
        if readCount < count { kill(child, SIGKILL) }
        var status: Int32 = 0
        waitpid(child, &status, 0)
        try #require(readCount == count, "the child did not answer")
        #expect(received != parentBytes)
        #expect(received != [UInt8](repeating: 0, count: count))
    }

    /// Found from outside: a fork while another thread drew from the pool left the child
    /// waiting for ever on the lock that thread held (25 of 40 trials). The lock lives in
    /// the page that is wiped on fork, so every child finds it open.
    ///
    /// Asynchronous, and waiting for each child with `Task.sleep`, so that while the
    /// drawers keep both cores busy no thread of the test pool is held (a synchronous
    /// version took two minutes in the full suite and starved the SDK's tests into their
    /// time limits).
    @Test func aChildForkedWhileOtherThreadsDrawDoesNotHang() async throws {
        let pool = PublicRandomPool()
        let stop = StopFlag()
        // The drawers draw only around each fork, so they do not keep both cores busy
        // while the test waits for a child.
        let drawing = Switch()
        let drawers = (0..<2).map { _ in
            Thread {
                var bytes = [UInt8](repeating: 0, count: 32)
                while !stop.isSet {
                    if drawing.isOn {
                        bytes.withUnsafeMutableBytes { pool.fill($0) }
                    } else {
                        usleep(1_000)
                    }
                }
            }
        }
        for drawer in drawers { drawer.start() }
        defer { stop.set() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 8)
        defer { buffer.deallocate() }
        var hung = 0
        for _ in 0..<20 {
            drawing.turn(on: true)
            usleep(2_000)
            let child = fork()
            try #require(child >= 0)
            if child == 0 {
                pool.fill(buffer)
                _exit(0)
            }
            drawing.turn(on: false)
            // Up to ten seconds for the child to end.
            var status: Int32 = 0
            var ended = false
            for _ in 0..<2_000 {
                if waitpid(child, &status, WNOHANG) == child {
                    ended = true
                    break
                }
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            if !ended {
                hung += 1
                kill(child, SIGKILL)
                waitpid(child, &status, 0)
            }
        }
        #expect(hung == 0, "\(hung) of 20 children hung")
    }
    #endif
}

/// A flag one thread sets and others read.
private final class StopFlag: @unchecked Sendable {
    // Sendable: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}

/// A switch one thread turns and others read.
private final class Switch: @unchecked Sendable {
    // Sendable: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value = false

    var isOn: Bool { lock.withLock { value } }

    func turn(on: Bool) { lock.withLock { value = on } }
}

/// Results gathered from several threads.
private final class LockedValues: @unchecked Sendable {
    // Sendable: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: [[UInt8]] = []

    var values: [[UInt8]] { lock.withLock { stored } }

    func append(_ more: [[UInt8]]) { lock.withLock { stored += more } }
}
