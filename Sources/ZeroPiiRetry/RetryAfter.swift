import Foundation

/// Parses the `Retry-After` header (RFC 9110, section 10.2.3): either a number of
/// seconds or an HTTP date.
package enum RetryAfter {
    /// The longest wait a `Retry-After` header can impose.
    package static let maximumMilliseconds = 60_000

    /// The wait the header asks for, in milliseconds, capped at 60 s; nil when the
    /// header is absent or unreadable. A date in the past means no wait.
    ///
    /// Delta-seconds are ASCII digits only (RFC 9110's `1*DIGIT`): other Unicode digits
    /// and number characters such as `½` make the header unreadable, not a long wait.
    ///
    /// - Parameters:
    ///   - header: the raw header value.
    ///   - now: the current time on the server's clock, so an HTTP date is measured
    ///     against the clock that wrote it (the SDK passes its device clock corrected by
    ///     the offset it learned from the server).
    package static func milliseconds(from header: String?, now: Date) -> Int? {
        guard let raw = header?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        if raw.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            guard let seconds = Int(raw) else { return maximumMilliseconds }
            return min(seconds, maximumMilliseconds / 1000) * 1000
        }
        guard let date = HTTPDate.date(from: raw) else { return nil }
        let milliseconds = (date.timeIntervalSince(now) * 1000).rounded(.up)
        return Int(min(max(milliseconds, 0), Double(maximumMilliseconds)))
    }

    /// Reads an HTTP date.
    @available(*, deprecated, renamed: "HTTPDate.date(from:)")
    package static func httpDate(_ text: String) -> Date? {
        HTTPDate.date(from: text)
    }
}
