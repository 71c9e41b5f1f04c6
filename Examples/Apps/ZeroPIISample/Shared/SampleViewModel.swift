import CleverTapZeroPiiSDK
import Foundation

/// The sample screen's state. Main-actor code, in Swift 6 mode: the callbacks set this
/// state directly, and the SDK runs them on the main actor.
@MainActor
final class SampleViewModel {
    var input = "alice@example.com"
    private(set) var status = "Enter a value and tap Tokenize." {
        didSet { onStatusChange?(status) }
    }
    /// Told every new status (the SwiftUI view republishes it).
    var onStatusChange: ((String) -> Void)?

    /// The reference's callback API.
    func tokenize() {
        status = "Tokenizing…"
        ZeroPiiSDK.getInstance().tokenizeString(input) { result in
            self.status = Self.describe(result)
        }
    }

    /// The async API.
    func tokenizeAsync() async {
        status = "Tokenizing…"
        status = Self.describe(await ZeroPiiSDK.getInstance().tokenize(input))
    }

    /// A batch of the comma-separated values in the input.
    func tokenizeBatch() {
        let values = input.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        status = "Tokenizing \(values.count) values…"
        ZeroPiiSDK.getInstance().batchTokenizeStringValues(values) { result in
            if result.isSuccess {
                self.status = result.results.map { "\($0.originalValue) → \($0.token)" }.joined(separator: "\n")
            } else {
                self.status = "Batch failed: \(result.errorMessage ?? "unknown error")"
            }
        }
    }

    private static func describe(_ result: TokenizeResult) -> String {
        if result.isSuccess {
            return "Token: \(result.token ?? "")\(result.newlyCreated ? " (new)" : " (existing)")"
        }
        return "Failed: \(result.errorMessage ?? "unknown error")"
    }
}
