import Foundation
import Testing

/// How long a wait lasts at most before it gives up: far beyond what any condition needs
/// on a loaded machine, so that only a regression reaches it, and short enough that a
/// regression fails the test instead of stalling the run.
public let defaultWaitLimit: TimeInterval = 60

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

/// Waits until `condition` holds, for at most ``defaultWaitLimit``; records an issue
/// naming `what` when it never does.
public func waitUntil(
    _ what: String = "the condition holds", sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async {
    if !(await waitUntil(atMost: defaultWaitLimit, condition)) {
        Issue.record("gave up waiting until \(what)", sourceLocation: sourceLocation)
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
