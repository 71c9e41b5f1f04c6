import Foundation
import ZeroPiiAuth

/// A provider whose behaviour each test chooses, counting its calls.
final class ScriptedProvider: NSObject, AccessTokenProvider, @unchecked Sendable {
    enum Behaviour {
        case answer(expiresIn: Int)
        case hold
        case answerTwice
        case never
        case fail
        case failWith(NSError)
    }

    struct ProviderFailure: Error {}

    private let lock = NSLock()
    private var behaviour: Behaviour
    private var callCount = 0
    private var held: [(AccessTokenInfo?, Error?) -> Void] = []

    init(_ behaviour: Behaviour) { self.behaviour = behaviour }

    var calls: Int { lock.withLock { callCount } }
    var heldCount: Int { lock.withLock { held.count } }

    func setBehaviour(_ behaviour: Behaviour) { lock.withLock { self.behaviour = behaviour } }

    func fetchToken(completion: @escaping (AccessTokenInfo?, Error?) -> Void) {
        let (number, behaviour) = lock.withLock { () -> (Int, Behaviour) in
            callCount += 1
            return (callCount, self.behaviour)
        }
        switch behaviour {
        case .answer(let expiresIn):
            completion(AccessTokenInfo(token: "secret-token-\(number)", expiresInSeconds: expiresIn), nil)
        case .hold:
            lock.withLock { held.append(completion) }
        case .answerTwice:
            completion(AccessTokenInfo(token: "secret-token-\(number)", expiresInSeconds: 3600), nil)
            completion(AccessTokenInfo(token: "secret-token-late", expiresInSeconds: 3600), nil)
        case .never:
            break
        case .fail:
            completion(nil, ProviderFailure())
        case .failWith(let error):
            completion(nil, error)
        }
    }

    /// Answers every held request with one token.
    func release(token: String, expiresIn: Int) {
        let completions = lock.withLock { () -> [(AccessTokenInfo?, Error?) -> Void] in
            defer { held.removeAll() }
            return held
        }
        for completion in completions {
            completion(AccessTokenInfo(token: token, expiresInSeconds: expiresIn), nil)
        }
    }
}

/// Collects log lines.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.withLock { lines } }
    var sink: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
}

/// Waits (without sleeping) until `condition` holds.
func waitUntil(_ condition: () -> Bool) async {
    while !condition() { await Task.yield() }
}

/// Waits (without sleeping) until `condition` holds or `seconds` of real time passed;
/// returns whether it holds. For conditions that a regression would never meet.
func waitUntil(atMost seconds: TimeInterval, _ condition: () -> Bool) async -> Bool {
    let giveUp = Date().addingTimeInterval(seconds)
    while !condition() && Date() < giveUp { await Task.yield() }
    return condition()
}

/// Holds a value that tasks set and tests read.
final class Flag: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var set = false
    var isSet: Bool { lock.withLock { set } }
    func raise() { lock.withLock { set = true } }
}
