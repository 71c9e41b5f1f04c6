import Foundation
import ZeroPiiSDK

/// The `--wire` option's values: the raw names of ``ZeroPiiWireProfile``.
enum WireOption {
    static let names = ZeroPiiWireProfile.allCases.map(\.rawValue)

    static let usageError = "--wire takes \(names.joined(separator: ", ")) (for example --wire clevertap)"

    /// The profiles in a comma-separated list (`v1,clevertap`), or nil when a name is
    /// unknown or the list is empty.
    static func profiles(in list: String) -> Set<ZeroPiiWireProfile>? {
        let parts = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let profiles = parts.compactMap(ZeroPiiWireProfile.init(rawValue:))
        guard !parts.isEmpty, profiles.count == parts.count else { return nil }
        return Set(profiles)
    }
}
