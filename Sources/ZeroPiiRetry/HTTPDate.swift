import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// Reads HTTP dates (RFC 9110, section 5.6.7), as found in `Date` and `Retry-After`.
///
/// Accepts the IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
/// and asctime, as RFC 9110 requires recipients to. The formatters are made once and
/// shared; a lock serialises their use, since `DateFormatter` is not documented as
/// thread-safe on every platform this package supports.
package enum HTTPDate {
    private static let parser = Parser()

    /// The date `text` names, or nil when it is not an HTTP date.
    package static func date(from text: String) -> Date? {
        parser.date(from: text)
    }

    private final class Parser: @unchecked Sendable {
        // Sendable: the formatters are used only inside their lock; `DateFormatter` is
        // not Sendable on every platform, so the compiler cannot see that.
        private let formatters = Locked(
            [
                "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
            ].map { format in
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "GMT")
                formatter.dateFormat = format
                return formatter
            })

        func date(from text: String) -> Date? {
            formatters.withLock { formatters in
                for formatter in formatters {
                    if let date = formatter.date(from: text) { return date }
                }
                return nil
            }
        }
    }
}
