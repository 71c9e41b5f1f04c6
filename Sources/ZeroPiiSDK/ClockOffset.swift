import Foundation

/// The correction, in seconds, from the device's clock to the server's, learned from the
/// `Date` header of a `stale_request` answer and kept for later requests: envelope
/// timestamps and HTTP dates in `Retry-After` are read on the corrected clock.
final class ClockOffset: @unchecked Sendable {
    // Sendable: the value is guarded by `lock`.
    private let lock = NSLock()
    private var value: Int64 = 0

    var seconds: Int64 {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
