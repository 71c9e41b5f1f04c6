import Foundation
import Testing

/// How long a wait lasts at most before it gives up: far beyond what any condition needs,
/// so that only a regression reaches it, and still short of stalling the run. Ten
/// minutes, because in the full suite the synchronous heavy tests (a million tokens, an
/// index grown to 2,048 pages) can hold both threads of a 2-core cooperative pool for
/// minutes, and nothing a waiting test needs can run until one is free.
public let defaultWaitLimit: TimeInterval = 600

/// Waits until `condition` holds or `seconds` of real time have passed, and returns
/// whether it holds. Between checks the task yields, then sleeps a millisecond, so a
/// waiting test never keeps a thread of the cooperative pool busy.
public func waitUntil(atMost seconds: TimeInterval, _ condition: () -> Bool) async -> Bool {
    let giveUp = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < giveUp else { return condition() }
        await Task.yield()
        if !condition() { try? await Task.sleep(nanoseconds: 1_000_000) }
    }
    return true
}

/// A wait that gave up: the test stops there rather than going on in a state it did not
/// expect (where a later `await` could wait forever).
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let description: String
}

/// Waits until `condition` holds, for at most ``defaultWaitLimit``; throws
/// ``WaitTimedOut``, naming `what`, when it never does.
public func waitUntil(_ what: String = "the condition holds", _ condition: () -> Bool) async throws {
    if !(await waitUntil(atMost: defaultWaitLimit, condition)) {
        throw WaitTimedOut(description: "gave up waiting until \(what)")
    }
}

/// The blocking form, for synchronous tests: checks every 5 ms until `condition` holds or
/// `seconds` have passed, and returns whether it holds.
public func blockUntil(atMost seconds: TimeInterval, _ condition: () -> Bool) -> Bool {
    let giveUp = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < giveUp else { return condition() }
        usleep(5_000)
    }
    return true
}
