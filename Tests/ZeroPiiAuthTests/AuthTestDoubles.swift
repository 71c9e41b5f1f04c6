import Foundation
import ZeroPiiAuth
import ZeroPiiTestHelpers

/// Collects log lines.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.withLock { lines } }
    var sink: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
}

/// Holds a value that tasks set and tests read.
final class Flag: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var set = false
    var isSet: Bool { lock.withLock { set } }
    func raise() { lock.withLock { set = true } }
}
