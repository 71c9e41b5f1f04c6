import Foundation
import ZeroPiiLocking
import ZeroPiiModels

/// Counters the mock server keeps: requests by endpoint and status, tokenize requests by
/// wire profile, tokens issued.
public final class ServerStatistics: Sendable {
    private struct State {
        var requests: [String: Int] = [:]
        var accessTokens = 0
        var profiles: [ZeroPiiWireProfile: Int] = [:]
        var vaultError: VaultError?
    }

    private let state = Locked(State())

    /// What the HTTP layer defended against: timeouts, `accept` errors, the memory budget.
    public let connections = HTTPServerStatistics()

    /// Requests answered, keyed `"<endpoint> <status>"`.
    public var requestCounts: [String: Int] { state.withLock { $0.requests } }
    /// Access tokens issued by the token endpoint.
    public var accessTokensIssued: Int { state.withLock { $0.accessTokens } }

    func record(endpoint: String, status: Int) {
        state.withLock { $0.requests["\(endpoint) \(status)", default: 0] += 1 }
    }

    /// Tokenize requests received, by the wire profile their headers name, whatever
    /// the answer.
    public var wireProfileCounts: [ZeroPiiWireProfile: Int] { state.withLock { $0.profiles } }

    func record(wireProfile: ZeroPiiWireProfile) {
        state.withLock { $0.profiles[wireProfile, default: 0] += 1 }
    }

    /// The vault's failure to store values (which the tokenize endpoints answer with a
    /// generic 500), so that a process embedding the server can say why: the file and
    /// the system's reason, such as a full disk. `nil` again once the vault stores
    /// values, so a later 500 for another reason is not blamed on an old failure.
    public var lastVaultError: VaultError? { state.withLock { $0.vaultError } }

    func record(vaultError error: VaultError) {
        state.withLock { $0.vaultError = error }
    }

    /// The vault stored (or found) every value of a request: an earlier failure is over.
    func recordVaultStored() {
        state.withLock { $0.vaultError = nil }
    }

    func recordAccessTokenIssued() {
        state.withLock { $0.accessTokens += 1 }
    }

    /// How many requests reached `endpoint`, whatever their status.
    public func count(endpoint: String) -> Int {
        state.withLock { $0.requests.filter { $0.key.hasPrefix(endpoint + " ") }.values.reduce(0, +) }
    }
}
