import Foundation
import ZeroPiiAuth

/// An ``AccessTokenProvider`` whose behaviour each test chooses, counting its calls.
/// Tokens are `<tokenPrefix>-<call number>`.
public final class ScriptedProvider: NSObject, AccessTokenProvider, @unchecked Sendable {
    // Sendable: all mutable state is guarded by `lock`.

    public enum Behaviour: Sendable {
        /// Answers at once with a token of that lifetime.
        case answer(expiresIn: Int)
        /// Keeps the completion until ``release(token:expiresIn:)``.
        case hold
        /// Answers with a token, then calls the completion a second time.
        case answerTwice
        /// Never calls the completion.
        case never
        /// Answers with ``ProviderFailure``.
        case fail
        /// Answers with this error.
        case failWith(Error)
        /// Calls the completion with exactly these arguments.
        case answerWith(AccessTokenInfo?, Error?)
    }

    public struct ProviderFailure: Error {}

    private let lock = NSLock()
    private var behaviour: Behaviour
    private var callCount = 0
    private var held: [@Sendable (AccessTokenInfo?, Error?) -> Void] = []
    public let tokenPrefix: String

    public init(_ behaviour: Behaviour, tokenPrefix: String = "secret-token") {
        self.behaviour = behaviour
        self.tokenPrefix = tokenPrefix
    }

    /// A provider that answers at once, every time.
    public convenience init(tokenPrefix: String = "secret-access-token", expiresIn: Int = 3600) {
        self.init(.answer(expiresIn: expiresIn), tokenPrefix: tokenPrefix)
    }

    public var calls: Int { lock.withLock { callCount } }
    public var heldCount: Int { lock.withLock { held.count } }

    public func setBehaviour(_ behaviour: Behaviour) { lock.withLock { self.behaviour = behaviour } }

    public func fetchToken(completion: @escaping @Sendable (AccessTokenInfo?, Error?) -> Void) {
        let (number, behaviour) = lock.withLock { () -> (Int, Behaviour) in
            callCount += 1
            return (callCount, self.behaviour)
        }
        switch behaviour {
        case .answer(let expiresIn):
            completion(AccessTokenInfo(token: "\(tokenPrefix)-\(number)", expiresInSeconds: expiresIn), nil)
        case .hold:
            lock.withLock { held.append(completion) }
        case .answerTwice:
            completion(AccessTokenInfo(token: "\(tokenPrefix)-\(number)", expiresInSeconds: 3600), nil)
            completion(AccessTokenInfo(token: "\(tokenPrefix)-late", expiresInSeconds: 3600), nil)
        case .never:
            break
        case .fail:
            completion(nil, ProviderFailure())
        case .failWith(let error):
            completion(nil, error)
        case .answerWith(let info, let error):
            completion(info, error)
        }
    }

    /// Answers every held request with one token.
    public func release(token: String, expiresIn: Int) {
        let completions = lock.withLock { () -> [@Sendable (AccessTokenInfo?, Error?) -> Void] in
            defer { held.removeAll() }
            return held
        }
        for completion in completions {
            completion(AccessTokenInfo(token: token, expiresInSeconds: expiresIn), nil)
        }
    }
}
