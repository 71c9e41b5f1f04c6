import Foundation

/// IMF-fixdate formatting for the `Date` header (RFC 9110, section 5.6.7).
enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func string(from date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        return String(
            format: "%@, %02d %@ %04d %02d:%02d:%02d GMT",
            weekdays[parts.weekday! - 1], parts.day!, months[parts.month! - 1], parts.year!,
            parts.hour!, parts.minute!, parts.second!
        )
    }
}
