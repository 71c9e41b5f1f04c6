import Dispatch
import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

/// Tests that go through the shared instance; serialized because `initialize`
/// reconfigures the one singleton.
@Suite(.serialized)
struct FacadeTests {
    static let callbackQueue = DispatchQueue(label: "zeropii.tests.callbacks")

    @discardableResult
    static func initialize(
        server: InTestServer, provider: AccessTokenProvider = ScriptedProvider(), log: CapturedLog? = nil, logLevel: ZeroPiiLogLevel = .off
    ) -> ZeroPiiSDK {
        var configuration = ZeroPiiConfiguration()
        configuration.transport = server.transport
        configuration.callbackQueue = callbackQueue
        configuration.retryClock = ImmediateRetryClock()
        configuration.logHandler = log?.handler
        return ZeroPiiSDK.initialize(
            tokenProvider: provider, apiUrl: "https://tokens.example.test", logLevel: logLevel,
            retryPolicy: DefaultRetryPolicy(), configuration: configuration
        )
    }

    /// Calls a callback API and waits for its one callback, checking the queue.
    static func callback<Result: Sendable>(_ call: (@escaping (Result) -> Void) -> Void) async -> Result {
        await withCheckedContinuation { continuation in
            call { result in
                dispatchPrecondition(condition: .onQueue(callbackQueue))
                continuation.resume(returning: result)
            }
        }
    }

    /// `allowsPlaintextFallback` only means something to the CleverTap-compatible
    /// profile; with any other, `initialize` says once, at info level, that it is
    /// ignored, and says nothing where it is read or not set.
    @Test(arguments: ZeroPiiWireProfile.allCases, [false, true])
    func aSettingTheWireProfileIgnoresIsLoggedOnceAtInit(profile: ZeroPiiWireProfile, fallback: Bool) async throws {
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let log = CapturedLog()
            var configuration = ZeroPiiConfiguration()
            configuration.transport = InTestServer().transport
            configuration.wireProfile = profile
            configuration.allowsPlaintextFallback = fallback
            configuration.logHandler = log.handler
            ZeroPiiSDK.initialize(
                tokenProvider: ScriptedProvider(), apiUrl: "https://tokens.example.test", logLevel: .info,
                retryPolicy: DefaultRetryPolicy(), configuration: configuration)
            let notes = log.entries.filter { $0.line.contains("allowsPlaintextFallback") }
            if fallback && profile != .cleverTapCompatible {
                #expect(notes.count == 1)
                #expect(notes.first?.level == .info)
                #expect(notes.first?.line.contains("the \(profile.rawValue) profile") == true)
            } else {
                #expect(notes.isEmpty)
            }
        }
    }

    @Test func everyCallbackMethodDeliversOnTheConfiguredQueue() async throws {
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let server = InTestServer()
            let sdk = Self.initialize(server: server)
            #expect(ZeroPiiSDK.getInstance() === sdk)

            let string = await Self.callback { sdk.tokenizeString("alice@example.com", callback: $0) }
            let int = await Self.callback { sdk.tokenizeInt(42, callback: $0) }
            let long = await Self.callback { sdk.tokenizeLong(9_876_543_210, callback: $0) }
            let float = await Self.callback { sdk.tokenizeFloat(3.14, callback: $0) }
            let double = await Self.callback { sdk.tokenizeDouble(2.71828, callback: $0) }
            let bool = await Self.callback { sdk.tokenizeBool(true, callback: $0) }
            #expect(string.token == InTestServer.token(for: "alice@example.com"))
            #expect(int.token == InTestServer.token(for: "42") && int.dataType == "number")
            #expect(long.token == InTestServer.token(for: "9876543210"))
            #expect(float.token == InTestServer.token(for: "3.14"))
            #expect(double.token == InTestServer.token(for: "2.71828"))
            #expect(bool.token == InTestServer.token(for: "true"))

            let strings = await Self.callback { sdk.batchTokenizeStringValues(["a", "b"], callback: $0) }
            let ints = await Self.callback { sdk.batchTokenizeIntValues([1, 2, 3], callback: $0) }
            let longs = await Self.callback { sdk.batchTokenizeLongValues([10_000_000_000], callback: $0) }
            let floats = await Self.callback { sdk.batchTokenizeFloatValues([1.1, 2.2], callback: $0) }
            let doubles = await Self.callback { sdk.batchTokenizeDoubleValues([1.111, 1e7], callback: $0) }
            let bools = await Self.callback { sdk.batchTokenizeBoolValues([true, false], callback: $0) }
            #expect(strings.results.map(\.originalValue) == ["a", "b"])
            #expect(ints.results.map(\.originalValue) == ["1", "2", "3"])
            #expect(longs.results.map(\.originalValue) == ["10000000000"])
            #expect(floats.results.map(\.originalValue) == ["1.1", "2.2"])
            #expect(doubles.results.map(\.originalValue) == ["1.111", "1.0E7"])
            #expect(bools.results.map(\.originalValue) == ["true", "false"])
            #expect([strings, ints, longs, floats, doubles, bools].allSatisfy { $0.isSuccess })
        }
    }

    @Test func invalidBatchesAndNonFiniteNumbersFailAtOnceWithoutARequest() async throws {
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let server = InTestServer()
            let sdk = Self.initialize(server: server)
            let empty = await Self.callback { sdk.batchTokenizeStringValues([], callback: $0) }
            let tooMany = await Self.callback { sdk.batchTokenizeIntValues(Array(0...1000), callback: $0) }
            let nanBatch = await Self.callback { sdk.batchTokenizeDoubleValues([1, .nan], callback: $0) }
            let infiniteBatch = await Self.callback { sdk.batchTokenizeFloatValues([.infinity], callback: $0) }
            let nan = await Self.callback { sdk.tokenizeDouble(.nan, callback: $0) }
            let infinity = await Self.callback { sdk.tokenizeFloat(-.infinity, callback: $0) }
            for result in [empty, tooMany, nanBatch, infiniteBatch] {
                #expect(!result.isSuccess && result.httpStatusCode == nil && result.errorMessage != nil)
            }
            #expect(empty.errorMessage == "a batch must hold at least one value")
            #expect(tooMany.errorMessage == "a batch holds at most 1000 values; this one had 1001")
            #expect(!nan.isSuccess && !infinity.isSuccess)
            #expect(server.requests.isEmpty)
            // Exactly 1000 is allowed.
            let full = await Self.callback { sdk.batchTokenizeIntValues(Array(0..<1000), callback: $0) }
            #expect(full.isSuccess && full.results.count == 1000)
        }
    }

    @Test func aSecondInitializeReplacesTheConfigurationOfTheSameInstance() async throws {
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let first = InTestServer()
            let second = InTestServer()
            let sdk = Self.initialize(server: first)
            _ = await sdk.tokenize("one")
            let again = Self.initialize(server: second)
            #expect(again === sdk)
            _ = await sdk.tokenize("two")
            #expect(first.requests.count == 1)
            #expect(second.requests.count == 1)
        }
    }

    /// `initialize` used to let go of the previous configuration while holding the
    /// SDK's locks, so a transport whose teardown reads the SDK (an app's wrapper that
    /// logs, say) deadlocked the second `initialize` on a lock its own thread held.
    @Test func aTransportWhoseTeardownReadsTheSDKDoesNotBlockASecondInitialize() async throws {
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let torndown = Watched(false)
            do {
                let first = InTestServer()
                var configuration = ZeroPiiConfiguration()
                configuration.transport = TeardownReadingTransport(first.transport) { torndown.change { $0 = true } }
                configuration.callbackQueue = Self.callbackQueue
                let sdk = ZeroPiiSDK.initialize(
                    tokenProvider: ScriptedProvider(), apiUrl: "https://tokens.example.test", logLevel: .off,
                    retryPolicy: DefaultRetryPolicy(), configuration: configuration)
                #expect(await sdk.tokenize("one").isSuccess)
            }
            let second = InTestServer()
            let sdk = Self.initialize(server: second)
            // The last reference may go a moment later, from the first call's task as it
            // finishes, so the teardown is awaited (bounded) rather than read at once.
            #expect(await torndown.wait(atMost: 60) { $0 }, "the first transport was let go")
            #expect(await sdk.tokenize("two").isSuccess)
        }
    }

    @Test func callbacksArriveOnTheMainThreadByDefault() async throws {
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            var configuration = ZeroPiiConfiguration()
            configuration.transport = InTestServer().transport
            let sdk = ZeroPiiSDK.initialize(
                tokenProvider: ScriptedProvider(), apiUrl: "https://tokens.example.test", logLevel: .off,
                retryPolicy: DefaultRetryPolicy(), configuration: configuration
            )
            // On Linux the main queue may be drained by a worker thread once the process
            // runs `dispatch_main`, so the queue is recognised by a queue-specific marker,
            // not by `Thread.isMainThread`.
            let marker = DispatchSpecificKey<String>()
            DispatchQueue.main.setSpecific(key: marker, value: "main")
            let queueName = await withCheckedContinuation { continuation in
                sdk.tokenizeString("value") { _ in continuation.resume(returning: DispatchQueue.getSpecific(key: marker)) }
            }
            #expect(queueName == "main")
        }
    }

    /// Every error path at `.debug`, with recognisable values and tokens: none of them
    /// may appear in a log line, an error message or a description.
    /// An outside test's finding: with the pipeline started on the calling task's
    /// thread, a transport that blocks its thread (instead of suspending) held back the
    /// callback API's result until the transport returned, past the time limit, though
    /// no app code waits on that thread. The callback must come at the limit, while the
    /// transport still blocks.
    @Test func aTransportThatBlocksItsThreadDoesNotHoldBackTheCallbackAtTheTimeLimit() async throws {
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let server = InTestServer()
            let clock = ManualTokenClock()
            let blocking = Watched(false)
            let blockedRequests = Watched(0)
            let release = DispatchSemaphore(value: 0)
            var configuration = ZeroPiiConfiguration()
            configuration.callbackQueue = Self.callbackQueue
            configuration.retryClock = ImmediateRetryClock()
            configuration.tokenClock = clock
            configuration.callTimeout = 5
            configuration.transport = ClosureTransport { request in
                if blocking.value {
                    blockedRequests.change { $0 += 1 }
                    release.wait()
                }
                return server.handle(request)
            }
            let sdk = ZeroPiiSDK.initialize(
                tokenProvider: ScriptedProvider(), apiUrl: "https://tokens.example.test", logLevel: .off,
                retryPolicy: DefaultRetryPolicy(), configuration: configuration
            )
            // A first call caches the access token, so the next one does not suspend
            // before its transport.
            let first = await Self.callback { sdk.tokenizeString("first", callback: $0) }
            #expect(first.token == InTestServer.token(for: "first"))

            blocking.change { $0 = true }
            let delivered = Watched<TokenizeResult?>(nil)
            sdk.tokenizeString("blocked") { result in delivered.change { $0 = result } }
            #expect(await blockedRequests.wait(atMost: 60) { $0 == 1 }, "the transport was reached")
            #expect(await clock.waitForSleepers(1, atMost: 60), "the call's deadline is set")
            clock.advance(by: 5)
            let arrived = await delivered.wait(atMost: 30) { $0 != nil }
            release.signal()
            #expect(arrived, "the callback came while the transport still blocked")
            #expect(delivered.value?.isSuccess == false && delivered.value?.errorKind == .timeout)
        }
    }

    @Test func noValueTokenOrAccessTokenLeaks() async throws {
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let value = "alice.secret@example.com"
            let log = CapturedLog()
            let server = InTestServer()
            let sdk = Self.initialize(server: server, provider: ScriptedProvider(tokenPrefix: "SECRET-ACCESS-TOKEN"), log: log, logLevel: .debug)
            var texts: [String] = []
            func record(_ result: TokenizeResult) {
                texts += [result.description, result.errorMessage ?? "", String(describing: result.httpStatusCode)]
            }
            func record(_ result: BatchTokenizeResult) {
                texts += [result.description, result.errorMessage ?? ""] + result.results.map(\.description)
            }
            record(await sdk.tokenize(value))  // success
            for status in [400, 401, 403, 409, 413, 419, 429, 500, 502, 503, 504, 418] {
                server.script(status: status)
                server.script(status: status)
                server.script(status: status)
                record(await sdk.tokenize(value))
                server.script(status: status)
                server.script(status: status)
                server.script(status: status)
                record(await sdk.batchTokenize([value, value + "2"]))
            }
            server.script { _ in TransportResponse(statusCode: 200, body: Data(value.utf8)) }
            record(await sdk.tokenize(value))
            server.script { _ in TransportResponse(statusCode: 200, headers: ["X-ZeroPii-Encryption": "v1"], body: Data("{}".utf8)) }
            record(await sdk.batchTokenize([value]))
            record(await sdk.batchTokenize([value]))  // success with items

            struct Failure: Error, CustomStringConvertible { var description: String { "SECRET-ACCESS-TOKEN in error" } }
            var configuration = ZeroPiiConfiguration()
            configuration.transport = server.transport
            configuration.logHandler = log.handler
            ZeroPiiSDK.initialize(
                tokenProvider: ScriptedProvider(.failWith(Failure())), apiUrl: "https://tokens.example.test", logLevel: .debug,
                retryPolicy: DefaultRetryPolicy(),
                configuration: configuration)
            record(await sdk.tokenize(value))

            #expect(!log.all.isEmpty)
            let token = InTestServer.token(for: value)
            for text in texts + log.all {
                #expect(!text.contains("alice"), "\(text)")
                #expect(!text.contains(token), "\(text)")
                #expect(!text.contains("SECRET-ACCESS-TOKEN"), "\(text)")
            }
        }
    }
}

/// A transport that, as it goes, reads the shared SDK instance (which takes the SDK's
/// lock) and reports that it went.
private final class TeardownReadingTransport: HTTPTransport, Sendable {
    private let wrapped: ClosureTransport
    private let onTeardown: @Sendable () -> Void

    init(_ wrapped: ClosureTransport, onTeardown: @escaping @Sendable () -> Void) {
        self.wrapped = wrapped
        self.onTeardown = onTeardown
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await wrapped.send(request)
    }

    deinit {
        _ = ZeroPiiSDK.instanceIfInitialized
        onTeardown()
    }
}
