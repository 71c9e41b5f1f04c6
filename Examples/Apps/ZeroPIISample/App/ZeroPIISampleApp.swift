import CleverTapZeroPiiSDK
import SwiftUI

/// The Swift/SwiftUI sample: initialises the SDK once, against the URL of the settings.
@main
struct ZeroPIISampleApp: App {
    init() {
        let apiURL = SampleSettings.apiURL()
        ZeroPiiSDK.initialize(
            tokenProvider: MockServerTokens.provider(apiURL: apiURL),
            apiUrl: apiURL,
            logLevel: .debug
        )
    }

    var body: some Scene {
        WindowGroup {
            ContentView()
        }
    }
}
