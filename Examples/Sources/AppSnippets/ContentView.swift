#if canImport(SwiftUI)
import CleverTapZeroPiiSDK
import SwiftUI

// Quick Start, step 3 (SwiftUI): the callback arrives on the main thread, so it can set
// `@State` directly.
struct ContentView: View {
    @State private var token: String = ""

    var body: some View {
        VStack {
            Text(token.isEmpty ? "No token yet" : "Token: \(token)")
            Button("Tokenize") {
                ZeroPiiSDK.getInstance().tokenizeString("alice@example.com") { result in
                    if result.isSuccess {
                        token = result.token ?? ""
                    }
                }
            }
        }
    }
}
#endif
