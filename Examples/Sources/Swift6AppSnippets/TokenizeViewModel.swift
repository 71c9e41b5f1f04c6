import CleverTapZeroPiiSDK

/// A screen's model in a Swift 6 app: main-actor state that the SDK's callbacks and its
/// async API set directly. The callback is formed in main-actor code, so it belongs to
/// the main actor and the SDK runs it there, whatever `callbackQueue` is.
@MainActor
final class TokenizeViewModel {
    private(set) var token = ""
    private(set) var tokens: [String] = []
    private(set) var failure: String?

    /// The reference's callback API.
    func tokenizeEmail(_ email: String) {
        ZeroPiiSDK.getInstance().tokenizeString(email) { result in
            if result.isSuccess {
                self.token = result.token ?? ""
            } else {
                self.failure = result.errorMessage
            }
        }
    }

    /// The callback API for a batch.
    func tokenizeEmails(_ emails: [String]) {
        ZeroPiiSDK.getInstance().batchTokenizeStringValues(emails) { result in
            self.tokens = result.results.map(\.token)
            self.failure = result.isSuccess ? nil : result.errorMessage
        }
    }

    /// The async API: the same result, awaited.
    func tokenizeEmailAsync(_ email: String) async {
        let result = await ZeroPiiSDK.getInstance().tokenize(email)
        if result.isSuccess {
            token = result.token ?? ""
        } else {
            failure = result.errorMessage
        }
    }
}
