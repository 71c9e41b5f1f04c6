import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiRetry)
import ZeroPiiRetry
#endif

/// The app's ``/ZeroPiiRetry/RetryClock`` with the server's clock offset added to
/// `now()`: what envelope timestamps and `Retry-After` dates are measured on, since the
/// server wrote them on its own clock. Sleeping is the base clock's.
struct ServerCorrectedClock: RetryClock {
    let base: any RetryClock
    let offset: ClockOffset

    func now() -> Date {
        base.now().addingTimeInterval(TimeInterval(offset.seconds))
    }

    func sleep(milliseconds: Int) async throws {
        try await base.sleep(milliseconds: milliseconds)
    }
}
