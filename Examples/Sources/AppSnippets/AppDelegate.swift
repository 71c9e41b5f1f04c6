#if canImport(UIKit) && !os(watchOS)
import CleverTapZeroPiiSDK
import UIKit

// Quick Start, step 2 (Swift, AppDelegate): the three ways to initialise. In an app
// target this class carries `@main`; a library target cannot.
class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        // Minimal — default log level (.off) and default retry policy (1 retry, exponential back-off)
        ZeroPiiSDK.initialize(
            tokenProvider: MyTokenProvider(),
            apiUrl: "https://your-api-base-url.com"
        )

        // With debug logging
        ZeroPiiSDK.initialize(
            tokenProvider: MyTokenProvider(),
            apiUrl: "https://your-api-base-url.com",
            logLevel: .debug
        )

        // With a custom retry policy
        ZeroPiiSDK.initialize(
            tokenProvider: MyTokenProvider(),
            apiUrl: "https://your-api-base-url.com",
            logLevel: .debug,
            retryPolicy: MyRetryPolicy()
        )

        return true
    }
}
#endif
