import CleverTapZeroPiiSDK
import Foundation
import Testing

// The Swift examples of the released SDK's documentation, kept as close to the page as
// the language allows, so that the public API cannot drift from the reference: if a
// name, label, type or optionality changes, this file stops compiling.

enum MyAuthService {
    static let shared = Service()
    final class Service: Sendable {
        func getToken(_ completion: @escaping (String?, Int, Error?) -> Void) {
            completion("reference-example-token", 3600, nil)
        }
    }
}

class MyTokenProvider: AccessTokenProvider {
    func fetchToken(completion: @escaping (AccessTokenInfo?, Error?) -> Void) {
        // Fetch a token from your auth system, then call completion exactly once.
        MyAuthService.shared.getToken { token, expiresIn, error in
            if let error = error {
                completion(nil, error)
            } else {
                let info = AccessTokenInfo(token: token!, expiresInSeconds: expiresIn)
                completion(info, nil)
            }
        }
    }
}

class MyRetryPolicy: NSObject, RetryPolicy {
    func shouldRetry(attempt: Int, httpStatusCode: NSNumber?) -> Bool {
        guard attempt < 3 else { return false }
        guard let code = httpStatusCode else { return true }  // network error → retry
        return [429, 500, 502, 503, 504].contains(code.intValue)
    }

    func retryDelayMs(attempt: Int) -> Int {
        return 1000 * (1 << (attempt + 1))  // 2 000 ms, 4 000 ms, 8 000 ms …
    }
}

/// Never called: it only has to compile.
func referenceExamples() {
    ZeroPiiSDK.initialize(tokenProvider: MyTokenProvider(), apiUrl: "https://your-api-base-url.com")
    ZeroPiiSDK.initialize(tokenProvider: MyTokenProvider(), apiUrl: "https://your-api-base-url.com", logLevel: .debug)
    ZeroPiiSDK.initialize(
        tokenProvider: MyTokenProvider(), apiUrl: "https://your-api-base-url.com", logLevel: .debug,
        retryPolicy: MyRetryPolicy()
    )
    let sdk = ZeroPiiSDK.getInstance()
    sdk.tokenizeString("alice@example.com") { result in
        if result.isSuccess {
            let token: String = result.token!
            let wasExisting: Bool = result.exists
            let isNew: Bool = result.newlyCreated
            let dataType: String? = result.dataType
            let status: NSNumber? = result.httpStatusCode
            print(token, wasExisting, isNew, dataType as Any, status as Any)
        } else {
            print("Tokenization failed: \(result.errorMessage ?? "unknown error")")
        }
    }
    sdk.tokenizeInt(42) { _ in }
    sdk.tokenizeLong(9_876_543_210) { _ in }
    sdk.tokenizeFloat(3.14) { _ in }
    sdk.tokenizeDouble(2.71828) { _ in }
    sdk.tokenizeBool(true) { _ in }

    let emails = ["alice@example.com", "bob@example.com", "carol@example.com"]
    ZeroPiiSDK.getInstance().batchTokenizeStringValues(emails) { result in
        if result.isSuccess {
            let summary: BatchTokenizeSummary = result.summary!
            print(summary.processedCount, summary.newlyCreatedCount, summary.existingCount)
            for item in result.results {
                let original: String = item.originalValue
                let token: String = item.token
                let flags: (Bool, Bool, String?) = (item.exists, item.newlyCreated, item.dataType)
                print("\(original) → \(token)", flags)
            }
        } else {
            print("Batch failed: \(result.errorMessage ?? "unknown error")", result.httpStatusCode as Any)
        }
    }
    ZeroPiiSDK.getInstance().batchTokenizeIntValues([1, 2, 3]) { _ in }
    ZeroPiiSDK.getInstance().batchTokenizeLongValues([10_000_000_000]) { _ in }
    ZeroPiiSDK.getInstance().batchTokenizeFloatValues([1.1, 2.2]) { _ in }
    ZeroPiiSDK.getInstance().batchTokenizeDoubleValues([1.111, 2.222]) { _ in }
    ZeroPiiSDK.getInstance().batchTokenizeBoolValues([true, false]) { _ in }

    let levels: [ZeroPiiLogLevel] = [.off, .error, .info, .debug]
    print(levels.map(\.rawValue) == [0, 1, 2, 3])
}

struct ReferenceExamplesTests {
    @Test func theReferenceExamplesCompileAndBehaveAsDocumented() {
        let policy = MyRetryPolicy()
        #expect(policy.shouldRetry(attempt: 0, httpStatusCode: nil))
        #expect(policy.retryDelayMs(attempt: 0) == 2000)
        #expect(ZeroPiiLogLevel.debug.rawValue == 3)
        let info = AccessTokenInfo(token: "t", expiresInSeconds: 5)
        #expect(info.token == "t" && info.expiresInSeconds == 5)
        _ = referenceExamples  // compiled, not run: it would reconfigure the shared instance
    }
}
