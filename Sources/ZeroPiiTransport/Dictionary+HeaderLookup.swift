import Foundation

extension Dictionary where Key == String, Value == String {
    /// The value stored under `name`, compared without regard to case, as HTTP header
    /// names are.
    func value(forHeader name: String) -> String? {
        first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
