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

    public func sleep(seconds: TimeInterval) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
    }
}
