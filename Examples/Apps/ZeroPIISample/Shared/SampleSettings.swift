import Foundation

/// Where the sample app finds the tokenization API: the `ZEROPII_API_URL` environment
/// variable when the scheme sets it, else Info.plist's `ZeroPiiApiURL` (the build setting
/// of the same name in project.yml), else the mock server on this Mac.
enum SampleSettings {
    static let defaultAPIURL = "http://127.0.0.1:8080/"

    static func apiURL(
        infoDictionary: [String: Any]? = Bundle.main.infoDictionary,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let url = environment["ZEROPII_API_URL"], !url.isEmpty {
            return url
        }
        if let url = infoDictionary?["ZeroPiiApiURL"] as? String, !url.isEmpty, !url.hasPrefix("$(") {
            return url
        }
        return defaultAPIURL
    }
}
