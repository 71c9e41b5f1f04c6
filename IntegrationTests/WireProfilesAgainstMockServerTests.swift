import Foundation
import Testing
import ZeroPiiMockServer
import ZeroPiiSDK
import ZeroPiiTestSupport

/// The SDK in each wire profile against the mock server over loopback, which tells the
/// profiles apart by their headers. Serialized: the tests share the SDK's one shared
/// instance.
@Suite(.serialized)
struct WireProfilesAgainstMockServerTests {
    /// Calls every one of the reference's twelve callback methods once.
    private static func callAllTwelveMethods(_ sdk: ZeroPiiSDK) async -> (singles: [TokenizeResult], batches: [BatchTokenizeResult]) {
        func single(_ call: (@escaping (TokenizeResult) -> Void) -> Void) async -> TokenizeResult {
            await withCheckedContinuation { continuation in call { continuation.resume(returning: $0) } }
        }
        func batch(_ call: (@escaping (BatchTokenizeResult) -> Void) -> Void) async -> BatchTokenizeResult {
            await withCheckedContinuation { continuation in call { continuation.resume(returning: $0) } }
        }
        let singles = [
            await single { sdk.tokenizeString("alice@example.com", callback: $0) },
            await single { sdk.tokenizeInt(42, callback: $0) },
            await single { sdk.tokenizeLong(9_876_543_210, callback: $0) },
            await single { sdk.tokenizeFloat(3.14, callback: $0) },
            await single { sdk.tokenizeDouble(2.71828, callback: $0) },
            await single { sdk.tokenizeBool(true, callback: $0) },
        ]
        let batches = [
            await batch { sdk.batchTokenizeStringValues(["alice@example.com", "bob@example.com"], callback: $0) },
            await batch { sdk.batchTokenizeIntValues([1, 42], callback: $0) },
            await batch { sdk.batchTokenizeLongValues([10_000_000_000], callback: $0) },
            await batch { sdk.batchTokenizeFloatValues([1.1, 2.2], callback: $0) },
            await batch { sdk.batchTokenizeDoubleValues([1.111, 2.222], callback: $0) },
            await batch { sdk.batchTokenizeBoolValues([true, false], callback: $0) },
        ]
        return (singles, batches)
    }

    @Test(arguments: ZeroPiiWireProfile.allCases)
    func allTwelveMethodsInEachProfile(profile: ZeroPiiWireProfile) async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let (server, _, sdk) = try startStack(wireProfile: profile, serverAccepts: [profile])
            defer { server.stop() }
            let (singles, batches) = await Self.callAllTwelveMethods(sdk)
            let sentSingles = ["alice@example.com", "42", "9876543210", "3.14", "2.71828", "true"]
            for (result, sent) in zip(singles, sentSingles) {
                #expect(result.isSuccess, "\(profile) \(sent)")
                #expect(result.token == server.vault.token(for: sent), "\(profile) \(sent)")
            }
            let sentBatches = [
                ["alice@example.com", "bob@example.com"], ["1", "42"], ["10000000000"], ["1.1", "2.2"], ["1.111", "2.222"], ["true", "false"],
            ]
            for (result, sent) in zip(batches, sentBatches) {
                #expect(result.isSuccess, "\(profile) \(sent)")
                #expect(result.results.map(\.originalValue) == sent)
                #expect(result.results.map(\.token) == sent.map { server.vault.token(for: $0) })
            }
            #expect(batches[0].results[0].exists && batches[1].results[1].exists)
            #expect(server.statistics.wireProfileCounts == [profile: 12])
            #expect(server.statistics.count(endpoint: "tokenize") == 6 && server.statistics.count(endpoint: "tokenize/batch") == 6)
        }
    }

    @Test func theSameValueGetsTheSameTokenInEveryProfile() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            var tokens: [String?] = []
            let path = NSTemporaryDirectory() + "zeropii-profiles-\(UUID().uuidString).db"
            defer { try? FileManager.default.removeItem(atPath: path) }
            for profile in ZeroPiiWireProfile.allCases {
                let (server, _, sdk) = try startStack(dataFile: path, wireProfile: profile)
                tokens.append(await sdk.tokenize("alice@example.com").token)
                server.stop()
            }
            #expect(tokens[0] != nil && Set(tokens).count == 1)
        }
    }

    @Test func withoutTheOptInA419IsTheResultAndNoPlaintextIsSent() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            // A service that does not know the CleverTap envelope answers it with 419.
            let (server, _, sdk) = try startStack(wireProfile: .cleverTapCompatible, serverAccepts: [.protocolV1, .plaintext])
            defer { server.stop() }
            let single = await sdk.tokenize("alice@example.com")
            #expect(!single.isSuccess && single.httpStatusCode == 419 && single.errorKind == .configuration)
            let batch = await sdk.batchTokenize(["alice@example.com"])
            #expect(!batch.isSuccess && batch.httpStatusCode == 419)
            #expect(server.statistics.wireProfileCounts == [.cleverTapCompatible: 2])
            #expect(server.vault.count == 0)
        }
    }

    @Test func withTheOptInEachRefusedRequestIsSentOnceInPlaintextAndTheNextEncryptedAgain() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let (server, _, sdk) = try startStack(
                wireProfile: .cleverTapCompatible, allowsPlaintextFallback: true, serverAccepts: [.protocolV1, .plaintext])
            defer { server.stop() }
            let first = await sdk.tokenize("alice@example.com")
            #expect(first.isSuccess && first.token == server.vault.token(for: "alice@example.com"))
            #expect(server.statistics.wireProfileCounts == [.cleverTapCompatible: 1, .plaintext: 1])
            let second = await sdk.batchTokenize(["bob@example.com"])
            #expect(second.isSuccess)
            #expect(server.statistics.wireProfileCounts == [.cleverTapCompatible: 2, .plaintext: 2])
            #expect(server.statistics.requestCounts["tokenize 419"] == 1 && server.statistics.requestCounts["tokenize 200"] == 1)
        }
    }

    @Test func aServerOfOneEncryptedProfileNeverSeesPlaintext() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let (server, _, sdk) = try startStack(wireProfile: .plaintext, serverAccepts: [.cleverTapCompatible])
            defer { server.stop() }
            let refused = await sdk.tokenize("alice@example.com")
            #expect(!refused.isSuccess && refused.httpStatusCode == 400 && refused.errorMessage?.contains("encryption_required") == true)
            #expect(refused.errorKind == .configuration)
            #expect(server.vault.count == 0)
        }
    }

    /// Every pairing of an SDK profile with a server that accepts only another one is a
    /// setup mismatch, and its result says so (kind `configuration`, with the advice to
    /// set the wire profile), for single and batch calls alike.
    @Test(arguments: ZeroPiiWireProfile.allCases)
    func aProfileTheServerDoesNotSpeakIsAConfigurationError(clientProfile: ZeroPiiWireProfile) async throws {
        for serverProfile in ZeroPiiWireProfile.allCases where serverProfile != clientProfile {
            try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
                let (server, _, sdk) = try startStack(wireProfile: clientProfile, serverAccepts: [serverProfile])
                defer { server.stop() }
                let single = await sdk.tokenize("alice@example.com")
                let batch = await sdk.batchTokenize(["alice@example.com", "bob@example.com"])
                #expect(!single.isSuccess && single.errorKind == .configuration, "\(clientProfile) to \(serverProfile)")
                #expect(!batch.isSuccess && batch.errorKind == .configuration, "\(clientProfile) to \(serverProfile)")
                #expect(single.errorMessage?.contains("wire") == true || single.httpStatusCode == 419)
                #expect(server.vault.count == 0)
            }
        }
    }

    @Test func faultsWorkInTheCleverTapProfile() async throws {
        try await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            let clock = ImmediateRetryClock()
            // Three retries: after the dropped connection, FoundationNetworking sometimes
            // sends the first retry on the dead connection too; the fault under test is the
            // server's, not that.
            let (server, _, sdk) = try startStack(
                retryClock: clock, wireProfile: .cleverTapCompatible, retryPolicy: DefaultRetryPolicy(maximumRetries: 3, baseDelayMs: 2000))
            defer { server.stop() }
            server.faults.inject(.status(503, retryAfter: "1"))
            #expect(await sdk.tokenize("a").isSuccess)
            #expect(clock.sleeps == [2000])

            server.faults.inject(.dropConnection)
            #expect(await sdk.tokenize("b").isSuccess)
            let requestsSoFar = server.statistics.wireProfileCounts[.cleverTapCompatible] ?? 0

            server.faults.inject(.corruptCiphertext)
            let corrupted = await sdk.tokenize("c")
            #expect(!corrupted.isSuccess && corrupted.errorMessage == "the response could not be decrypted")

            server.faults.inject(.downgrade)
            let downgraded = await sdk.batchTokenize(["d"])
            #expect(!downgraded.isSuccess && downgraded.errorMessage?.contains("without payload encryption") == true)

            server.expireAllAccessTokens()
            #expect(await sdk.tokenize("e").isSuccess)
            #expect(server.statistics.requestCounts["tokenize 401"] == 1)
            // a: 503 and its retry; b: the drop and its retries (at least one); c, d; e: 401 and its replay.
            #expect(requestsSoFar >= 4)
            #expect(server.statistics.wireProfileCounts == [.cleverTapCompatible: requestsSoFar + 4])
        }
    }
}
