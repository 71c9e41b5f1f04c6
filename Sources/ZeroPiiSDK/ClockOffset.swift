import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// The correction, in seconds, from the device's clock to the server's, learned from the
/// `Date` header of a `stale_request` answer and kept for later requests: envelope
/// timestamps and HTTP dates in `Retry-After` are read on the corrected clock.
final class ClockOffset: Sendable {
    private let value = Locked<Int64>(0)

    var seconds: Int64 {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
