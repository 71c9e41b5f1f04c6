import Foundation

@testable import ZeroPiiSDK

/// What tests look at in the deadlines that the SDK never needs to.
extension CallDeadlines {
    /// The running timer's task: its value comes when the timer stops, and a replaced
    /// timer's when it has seen that it was.
    var timerTask: Task<Void, Never>? { state.withLock { $0.timer?.task } }

    /// How many timer tasks were started so far: calls that come and go while one is
    /// running start none.
    var timerStartCount: Int { state.withLock { $0.timersStarted } }
}
