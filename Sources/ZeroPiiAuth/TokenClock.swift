import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the token cache needs from time: a clock that keeps counting while the device
/// sleeps (so a token's lifetime is not stretched by a night in standby) and a
/// cancellable sleep for the provider timeout. Tests inject a manual clock.
public protocol TokenClock: Sendable {
    /// Seconds since an arbitrary fixed point, including time asleep.
    func now() -> TimeInterval
    /// Waits `seconds`; throws `CancellationError` if the task is cancelled meanwhile.
    /// `.infinity` waits until cancelled; zero, negative and NaN do not wait.
    func sleep(seconds: TimeInterval) async throws
}

/// The real clock: `CLOCK_BOOTTIME` on Linux and `CLOCK_MONOTONIC` on Apple platforms,
/// both of which include time spent asleep (unlike `ProcessInfo.systemUptime`).
public struct SystemTokenClock: TokenClock {
    /// The system's clock.
    public init() {}

    public func now() -> TimeInterval {
        var time = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_BOOTTIME, &time)
        #else
        clock_gettime(CLOCK_MONOTONIC, &time)
        #endif
        return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9
    }

    /// Waits `seconds` (in steps of at most a day, so no duration overflows the
    /// nanosecond count); `.infinity` waits until the task is cancelled.
    public func sleep(seconds: TimeInterval) async throws {
        var remaining = seconds > 0 ? seconds : 0
        repeat {
            let step = min(remaining, 86_400)
            try await Task.sleep(nanoseconds: UInt64(step * 1e9))
            remaining -= step
        } while remaining > 0
    }
}
