import Dispatch
import Foundation
import Testing
import ZeroPiiTestSupport

@testable import CleverTapZeroPiiSDK

// Compiled in Swift 6 language mode (Package.swift), as a Swift 6 app is: there a
// closure formed in `@MainActor` code is main-actor-isolated and checks at run time that
// it runs on the main actor. Before the callbacks took the caller's isolation, a
// background `callbackQueue` made every test here trap in `swift_task_isCurrentExecutor`.

/// Tells which queue a callback runs on: each queue carries its own marker.
private let queueMarker = DispatchSpecificKey<String>()

/// A view model as a Swift 6 app writes it: main-actor state that the SDK's callbacks
/// and its async API change directly.
@MainActor
private final class TokenViewModel {
    var tokens: [String] = []
    /// The queue marker seen by each callback, in order.
    var callbackQueues: [String?] = []

    func tokenizeWithCallbacks(_ sdk: ZeroPiiSDK, done: @escaping @Sendable () -> Void) {
        sdk.tokenizeString("alice@example.com") { result in
            self.tokens.append(result.token ?? "failed: \(result.errorMessage ?? "")")
            self.callbackQueues.append(DispatchQueue.getSpecific(key: queueMarker))
            sdk.tokenizeInt(42) { result in
                self.tokens.append(result.token ?? "failed")
                self.callbackQueues.append(DispatchQueue.getSpecific(key: queueMarker))
                sdk.batchTokenizeStringValues(["bob@example.com", "carol@example.com"]) { batch in
                    self.tokens += batch.results.map(\.token)
                    self.callbackQueues.append(DispatchQueue.getSpecific(key: queueMarker))
                    done()
                }
            }
        }
    }

    func tokenizeAsync(_ sdk: ZeroPiiSDK) async {
        let result = await sdk.tokenize("dave@example.com")
        tokens.append(result.token ?? "failed")
    }
}

/// Code that is isolated to no actor: its callbacks go to the configured queue.
private func tokenizeFromNonisolatedCode(_ sdk: ZeroPiiSDK) async -> (token: String?, queue: String?) {
    await withCheckedContinuation { continuation in
        sdk.tokenizeString("erin@example.com") { result in
            continuation.resume(returning: (result.token, DispatchQueue.getSpecific(key: queueMarker)))
        }
    }
}

@Suite(.serialized)
struct MainActorCallbackTests {
    static let backgroundQueue: DispatchQueue = {
        let queue = DispatchQueue(label: "zeropii.tests.swift6.background")
        queue.setSpecific(key: queueMarker, value: "background")
        return queue
    }()

    /// The token the stand-in service gives a value: the value reversed.
    static func token(_ value: String) -> String { String(value.reversed()) }

    /// The SDK against a stand-in service (plaintext bodies), calling back on a
    /// background queue.
    static func initialize() -> ZeroPiiSDK {
        var configuration = ZeroPiiConfiguration()
        configuration.callbackQueue = backgroundQueue
        configuration.wireProfile = .plaintext
        configuration.transport = ClosureTransport { request in
            let body = try JSONSerialization.jsonObject(with: request.body) as? [String: Any] ?? [:]
            let response: [String: Any]
            if let values = body["values"] as? [String] {
                let items: [[String: Any]] = values.map {
                    ["originalValue": $0, "token": token($0), "exists": false, "newlyCreated": true, "dataType": "string"]
                }
                response = [
                    "results": items,
                    "summary": ["processedCount": values.count, "existingCount": 0, "newlyCreatedCount": values.count],
                ]
            } else {
                let value = body["value"] as? String ?? ""
                response = ["token": token(value), "exists": false, "newlyCreated": true, "dataType": "string"]
            }
            return TransportResponse(statusCode: 200, body: try JSONSerialization.data(withJSONObject: response))
        }
        let provider = AsyncAccessTokenProvider { AccessTokenInfo(token: "test-access", expiresInSeconds: 3600) }
        return ZeroPiiSDK.initialize(
            tokenProvider: provider, apiUrl: "https://tokens.example.test/", logLevel: .off,
            retryPolicy: DefaultRetryPolicy(), configuration: configuration
        )
    }

    /// What a main-actor screen does: three callback calls, then one async call.
    @MainActor
    static func runViewModel(_ sdk: ZeroPiiSDK) async -> (tokens: [String], callbackQueues: [String?]) {
        let model = TokenViewModel()
        await withCheckedContinuation { continuation in
            model.tokenizeWithCallbacks(sdk) { continuation.resume() }
        }
        await model.tokenizeAsync(sdk)
        return (model.tokens, model.callbackQueues)
    }

    @Test func callbacksFormedInMainActorCodeRunOnTheMainActorWithABackgroundQueue() async {
        DispatchQueue.main.setSpecific(key: queueMarker, value: "main")
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let sdk = Self.initialize()
            let model = await Self.runViewModel(sdk)

            #expect(
                model.tokens == [
                    Self.token("alice@example.com"), Self.token("42"), Self.token("bob@example.com"),
                    Self.token("carol@example.com"), Self.token("dave@example.com"),
                ]
            )
            // On the main actor, whose jobs run on the main queue; not on the callback queue.
            #expect(model.callbackQueues == ["main", "main", "main"])
        }
    }

    @Test func callbacksFormedInNonisolatedCodeRunOnTheCallbackQueue() async {
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let sdk = Self.initialize()
            let (token, queue) = await tokenizeFromNonisolatedCode(sdk)
            #expect(token == Self.token("erin@example.com"))
            #expect(queue == "background")
        }
    }
}
