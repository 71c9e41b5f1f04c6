import Foundation
import ZeroPiiModels

/// Counters the mock server keeps: requests by endpoint and status, tokenize requests by
/// wire profile, tokens issued.
public final class ServerStatistics: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var requests: [String: Int] = [:]
    private var accessTokens = 0
    private var profiles: [ZeroPiiWireProfile: Int] = [:]
    private var vaultError: VaultError?

    /// What the HTTP layer defended against: timeouts, `accept` errors, the memory budget.
    public let connections = HTTPServerStatistics()

    /// Requests answered, keyed `"<endpoint> <status>"`.
    public var requestCounts: [String: Int] { lock.withLock { requests } }
    /// Access tokens issued by the token endpoint.
    public var accessTokensIssued: Int { lock.withLock { accessTokens } }

    func record(endpoint: String, status: Int) {
        lock.withLock { requests["\(endpoint) \(status)", default: 0] += 1 }
    }

    /// Tokenize requests received, by the wire profile their headers name, whatever
    /// the answer.
    public var wireProfileCounts: [ZeroPiiWireProfile: Int] { lock.withLock { profiles } }

    func record(wireProfile: ZeroPiiWireProfile) {
        lock.withLock { profiles[wireProfile, default: 0] += 1 }
    }

    /// The vault's failure to store values (which the tokenize endpoints answer with a
    /// generic 500), so that a process embedding the server can say why: the file and
    /// the system's reason, such as a full disk. `nil` again once the vault stores
    /// values, so a later 500 for another reason is not blamed on an old failure.
    public var lastVaultError: VaultError? { lock.withLock { vaultError } }

    func record(vaultError error: VaultError) {
        lock.withLock { vaultError = error }
    }

    /// The vault stored (or found) every value of a request: an earlier failure is over.
    func recordVaultStored() {
        lock.withLock { vaultError = nil }
    }

    func recordAccessTokenIssued() {
        lock.withLock { accessTokens += 1 }
    }

    /// How many requests reached `endpoint`, whatever their status.
    public func count(endpoint: String) -> Int {
        lock.withLock { requests.filter { $0.key.hasPrefix(endpoint + " ") }.values.reduce(0, +) }
    }
}
