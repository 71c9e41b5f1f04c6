#if canImport(SwiftUI)
import CleverTapZeroPiiSDK
import SwiftUI

// Quick Start, step 2 (SwiftUI): initialise in the App's init. In an app target this
// struct carries `@main`; a library target cannot.
struct MyApp: App {
    init() {
        ZeroPiiSDK.initialize(
            tokenProvider: MyTokenProvider(),
            apiUrl: "https://your-api-base-url.com"
        )
    }

    var body: some Scene {
        WindowGroup {
            ContentView()
        }
    }
}
#endif
