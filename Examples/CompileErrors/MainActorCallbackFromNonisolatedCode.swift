// Must not compile (Scripts/run-example.sh checks): in Swift 6 a callback that needs an
// actor the caller is not on is a compile error, not a trap when the SDK calls it.
// expected-error: loses global actor 'MainActor'
import CleverTapZeroPiiSDK

@MainActor final class Screen { var token = "" }

// Nonisolated code handing over a closure that needs the main actor.
func tokenizeFromNonisolatedCode(_ screen: Screen) {
    ZeroPiiSDK.getInstance().tokenizeString("alice@example.com") { @MainActor result in
        screen.token = result.token ?? ""
    }
}
