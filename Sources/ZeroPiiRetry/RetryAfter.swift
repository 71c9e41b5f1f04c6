import Foundation

/// Parses the `Retry-After` header (RFC 9110, section 10.2.3): either a number of
/// seconds or an HTTP date.
public enum RetryAfter {
    /// The longest wait a `Retry-After` header can impose.
    public static let maximumMilliseconds = 60_000

    /// The wait the header asks for, in milliseconds, capped at 60 s; nil when the
    /// header is absent or unreadable. A date in the past means no wait.
    public static func milliseconds(from header: String?, now: Date) -> Int? {
        guard let raw = header?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        if raw.allSatisfy(\.isNumber) {
            guard let seconds = Int(raw) else { return maximumMilliseconds }
            return min(seconds, maximumMilliseconds / 1000) * 1000
        }
        guard let date = httpDate(raw) else { return nil }
        let milliseconds = (date.timeIntervalSince(now) * 1000).rounded(.up)
        return Int(min(max(milliseconds, 0), Double(maximumMilliseconds)))
    }

    /// Reads an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850
    /// form and asctime, as RFC 9110 requires recipients to.
    public static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
