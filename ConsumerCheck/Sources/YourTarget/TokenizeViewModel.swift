import CleverTapZeroPiiSDK

/// A screen's model in a Swift 6 app: main-actor state set from every tokenize method's
/// callback and from the `async` API.
@MainActor
final class TokenizeViewModel {
    private(set) var tokens: [String] = []
    private(set) var failures: [String] = []

    private func record(_ result: TokenizeResult) {
        if result.isSuccess {
            tokens.append(result.token ?? "")
        } else {
            failures.append(result.errorMessage ?? "")
        }
    }

    private func record(_ result: BatchTokenizeResult) {
        if result.isSuccess {
            tokens += result.results.map(\.token)
        } else {
            failures.append(result.errorMessage ?? "")
        }
    }

    func tokenizeWithCallbacks() {
        let sdk = ZeroPiiSDK.getInstance()
        sdk.tokenizeString("alice@example.com") { result in self.record(result) }
        sdk.tokenizeInt(42) { result in self.record(result) }
        sdk.tokenizeLong(9_876_543_210) { result in self.record(result) }
        sdk.tokenizeFloat(3.14) { result in self.record(result) }
        sdk.tokenizeDouble(2.71828) { result in self.record(result) }
        sdk.tokenizeBool(true) { result in self.record(result) }
        sdk.batchTokenizeStringValues(["alice@example.com", "bob@example.com"]) { result in self.record(result) }
        sdk.batchTokenizeIntValues([1, 2, 3]) { result in self.record(result) }
        sdk.batchTokenizeLongValues([10_000_000_000]) { result in self.record(result) }
        sdk.batchTokenizeFloatValues([1.1, 2.2]) { result in self.record(result) }
        sdk.batchTokenizeDoubleValues([1.111, 2.222]) { result in self.record(result) }
        sdk.batchTokenizeBoolValues([true, false]) { result in self.record(result) }
    }

    func tokenizeAsync() async {
        let sdk = ZeroPiiSDK.getInstance()
        record(await sdk.tokenize("alice@example.com"))
        record(await sdk.tokenize(42))
        record(await sdk.tokenize(Int64(9_876_543_210)))
        record(await sdk.tokenize(Float(3.14)))
        record(await sdk.tokenize(2.71828))
        record(await sdk.tokenize(true))
        record(await sdk.batchTokenize(["alice@example.com", "bob@example.com"]))
        record(await sdk.batchTokenize([1, 2, 3]))
        record(await sdk.batchTokenize([Int64(10_000_000_000)]))
        record(await sdk.batchTokenize([Float(1.1), 2.2]))
        record(await sdk.batchTokenize([1.111, 2.222]))
        record(await sdk.batchTokenize([true, false]))
    }
}
