import Foundation
import Testing
import ZeroPiiMockServer
import ZeroPiiSDK
import ZeroPiiTestSupport

/// Coalescing with the real URLSession transport against the mock server over loopback.
/// The window runs on a manual clock that the tests never move, so a batch leaves only
/// when it is full: the request count does not depend on how fast the machine is.
@Suite(.serialized)
struct CoalescingAgainstMockServerTests {
    /// Points the shared SDK at `server`, with coalescing when `coalescing` is set.
    @discardableResult
    static func initialize(server: MockTokenizationServer, coalescing: ZeroPiiConfiguration.Coalescing?) -> ZeroPiiSDK {
        var configuration = ZeroPiiConfiguration()
        configuration.retryClock = ImmediateRetryClock()
        configuration.tokenClock = ManualTokenClock()
        configuration.requestTimeout = 60
        configuration.callbackQueue = DispatchQueue(label: "integration.coalescing.callbacks")
        configuration.coalescing = coalescing
        return ZeroPiiSDK.initialize(
            tokenProvider: ServerTokenProvider(server: server), apiUrl: server.baseURL.absoluteString, logLevel: .off,
            retryPolicy: DefaultRetryPolicy(), configuration: configuration
        )
    }

    @Test func aThousandConcurrentCallsMakeOneRequestAndGetTheTokensOfAThousandSequentialOnes() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let server = try MockTokenizationServer()
            defer { server.stop() }
            let values = (0..<1000).map { $0 % 3 == 0 ? "user\($0)@example.com" : "\($0 * 7919)" }

            let sdk = Self.initialize(server: server, coalescing: ZeroPiiConfiguration.Coalescing())
            let concurrent = await withTaskGroup(of: (Int, TokenizeResult).self) { group in
                for (index, value) in values.enumerated() {
                    group.addTask { (index, await sdk.tokenize(value)) }
                }
                var results = [TokenizeResult?](repeating: nil, count: values.count)
                for await (index, result) in group { results[index] = result }
                return results.map { $0! }
            }
            #expect(server.statistics.count(endpoint: "tokenize/batch") <= 3)
            #expect(server.statistics.count(endpoint: "tokenize") == 0)
            #expect(concurrent.allSatisfy { $0.isSuccess && $0.newlyCreated && !$0.exists })
            #expect(Set(concurrent.compactMap(\.token)).count == values.count)

            Self.initialize(server: server, coalescing: nil)
            var sequential: [TokenizeResult] = []
            for value in values { sequential.append(await sdk.tokenize(value)) }
            #expect(server.statistics.count(endpoint: "tokenize") == values.count)
            #expect(sequential.allSatisfy { $0.isSuccess && $0.exists && !$0.newlyCreated })
            #expect(sequential.map(\.token) == concurrent.map(\.token))
            #expect(sequential.map(\.dataType) == concurrent.map(\.dataType))
            #expect(concurrent.map(\.dataType) == values.map { $0.contains("@") ? "string" : "number" })
        }
    }

    @Test func aValueTheMockServerRejectsFailsOnlyItsOwnCaller() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let server = try MockTokenizationServer()
            defer { server.stop() }
            // One value over the protocol's 4096 bytes: the server rejects any request holding it.
            let values = (0..<15).map { "field-\($0)" } + [String(repeating: "x", count: 5000)]
            let sdk = Self.initialize(server: server, coalescing: ZeroPiiConfiguration.Coalescing(maximumBatchSize: values.count))
            let results = await withTaskGroup(of: (Int, TokenizeResult).self) { group in
                for (index, value) in values.enumerated() {
                    group.addTask { (index, await sdk.tokenize(value)) }
                }
                var results = [TokenizeResult?](repeating: nil, count: values.count)
                for await (index, result) in group { results[index] = result }
                return results.map { $0! }
            }
            #expect(results.dropLast().allSatisfy { $0.isSuccess })
            for (value, result) in zip(values.dropLast(), results) {
                #expect(result.token == server.vault.token(for: value))
            }
            let rejected = try #require(results.last)
            #expect(!rejected.isSuccess && rejected.httpStatusCode == 400 && rejected.errorKind == .invalidInput)
            // 16 → 8 + 8 → 4 + 4 → 2 + 2 → 1 + 1: four rejected batches, the value alone at the end.
            #expect(server.statistics.requestCounts["tokenize/batch 400"] == 4)
            #expect(server.statistics.requestCounts["tokenize 400"] == 1)
        }
    }
}
