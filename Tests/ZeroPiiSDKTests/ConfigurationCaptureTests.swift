import Dispatch
import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

/// A call keeps the configuration it started under, whole, when `initialize` is called
/// again while it runs. Serialized, and behind the shared gate: it reconfigures the
/// singleton.
@Suite(.serialized)
struct ConfigurationCaptureTests {
    static let marker = DispatchSpecificKey<String>()

    static func initialize(server: InTestServer, queue: DispatchQueue) {
        var configuration = ZeroPiiConfiguration()
        configuration.transport = server.transport
        configuration.callbackQueue = queue
        configuration.retryClock = ImmediateRetryClock()
        ZeroPiiSDK.initialize(
            tokenProvider: ScriptedProvider(), apiUrl: "https://tokens.example.test", logLevel: .off, retryPolicy: DefaultRetryPolicy(),
            configuration: configuration
        )
    }

    @Test func aCallRunsWithTheClientAndCallsBackOnTheQueueOfTheSameInitialize() async throws {
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let first = DispatchQueue(label: "zeropii.tests.first")
            let second = DispatchQueue(label: "zeropii.tests.second")
            first.setSpecific(key: Self.marker, value: "first")
            second.setSpecific(key: Self.marker, value: "second")
            for round in 0..<25 {
                let firstServer = InTestServer()
                let secondServer = InTestServer()
                Self.initialize(server: firstServer, queue: first)
                let sdk = ZeroPiiSDK.getInstance()
                let (queue, succeeded) = await withCheckedContinuation { continuation in
                    sdk.tokenizeString("value") { result in
                        continuation.resume(returning: (DispatchQueue.getSpecific(key: Self.marker), result.isSuccess))
                    }
                    // A user switch right after the call started.
                    Self.initialize(server: secondServer, queue: second)
                }
                #expect(succeeded, "round \(round)")
                #expect(queue == "first", "round \(round)")
                #expect(firstServer.requests.count == 1 && secondServer.requests.isEmpty, "round \(round)")
            }
        }
    }
}
