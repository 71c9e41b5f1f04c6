import Foundation
import Testing
import ZeroPiiLocking

struct LockedTests {
    private struct Refusal: Error {}

    @Test func keepsWhatTheBodyChanges() {
        let counter = Locked(41)
        counter.withLock { $0 += 1 }
        #expect(counter.withLock { $0 } == 42)
    }

    @Test func returnsWhatTheBodyReturns() {
        let queue = Locked(["first", "second", "third"])
        let taken = queue.withLock { $0.removeFirst() }
        #expect(taken == "first")
        #expect(queue.withLock { $0 } == ["second", "third"])
    }

    /// Each increment reads and then writes the state; without the lock some of the
    /// 80,000 would overwrite one another.
    @Test func concurrentChangesAreNotLost() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 {
                        counter.withLock { value in
                            let read = value
                            value = read + 1
                        }
                    }
                }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    /// The error reaches the caller, the state keeps what the body did before it threw,
    /// and another thread can take the lock (waited for with a limit, so a lock left
    /// held fails the test instead of hanging it).
    @Test func aThrowingBodyLeavesTheLockUsable() {
        let state = Locked(1)
        #expect(throws: Refusal.self) {
            try state.withLock { value in
                value = 2
                throw Refusal()
            }
        }
        let taken = DispatchSemaphore(value: 0)
        Thread {
            state.withLock { $0 += 1 }
            taken.signal()
        }
        .start()
        #expect(taken.wait(timeout: .now() + 10) == .success)
        #expect(state.withLock { $0 } == 3)
    }
}
