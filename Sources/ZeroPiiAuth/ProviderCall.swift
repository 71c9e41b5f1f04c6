import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif

/// One call of an app's ``AccessTokenProvider``, made safe: the first completion wins,
/// later ones are ignored, and a provider that never answers times out (unless the
/// timeout is infinite). A provider's error is logged by domain and code only: its text
/// is the app's and could hold anything.
struct ProviderCall {
    let provider: SharedTokenProvider
    let clock: any TokenClock
    let timeout: TimeInterval
    let log: @Sendable (String) -> Void

    func fetch() async throws -> AccessTokenInfo {
        let completion = OnceCompletion()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<AccessTokenInfo, Error>) in
            completion.arm(continuation)
            let clock = self.clock
            let timeout = self.timeout
            let timer: Task<Void, Never>? =
                timeout.isInfinite && timeout > 0
                ? nil
                : Task {
                    do {
                        try await clock.sleep(seconds: timeout > 0 ? timeout : 0)
                    } catch {
                        return
                    }
                    completion.finish(.failure(AuthError.providerTimedOut))
                }
            let log = self.log
            provider.value.fetchToken { info, error in
                let result: Result<AccessTokenInfo, Error>
                if let info, !info.token.isEmpty {
                    result = .success(info)
                } else if let error {
                    let reported = error as NSError
                    log("the token provider reported an error (domain \(reported.domain), code \(reported.code))")
                    result = .failure(AuthError.providerFailed)
                } else {
                    result = .failure(AuthError.emptyToken)
                }
                if completion.finish(result) {
                    timer?.cancel()
                } else {
                    log("the token provider called its completion again (or too late); the call was ignored")
                }
            }
        }
    }
}

/// Resumes a continuation exactly once, whoever comes first.
private final class OnceCompletion: Sendable {
    private struct State {
        var continuation: CheckedContinuation<AccessTokenInfo, Error>?
        var finished = false
    }

    private let state = Locked(State())

    func arm(_ continuation: CheckedContinuation<AccessTokenInfo, Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Returns `false` when the continuation had already been resumed.
    @discardableResult
    func finish(_ result: Result<AccessTokenInfo, Error>) -> Bool {
        let pending: CheckedContinuation<AccessTokenInfo, Error>? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        guard let pending else { return false }
        pending.resume(with: result)
        return true
    }
}
