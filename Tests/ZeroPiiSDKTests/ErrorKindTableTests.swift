import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

@testable import ZeroPiiSDK

/// Every status of Docs/Protocol.md section 6 and every failure the SDK finds itself, with the
/// ``ZeroPiiErrorKind`` the "Retry and errors" article documents for it.
struct ErrorKindTableTests {
    /// Status, the server's error code, the documented kind, and how many requests the
    /// SDK makes (1 when final, 2 when retried once or replayed once), in both encrypted
    /// profiles (section 9 keeps section 6 as it is).
    @Test(
        arguments: [
            (400, "bad_json", ZeroPiiErrorKind.invalidInput, 1),
            (400, "stale_request", .invalidInput, 2),
            (400, "encryption_required", .configuration, 1),
            (400, "unsupported_encryption", .configuration, 1),
            (400, "unsupported_version", .configuration, 1),
            (400, "invalid_envelope", .configuration, 1),
            (401, "unauthorized", .authentication, 2),
            (403, "forbidden", .authentication, 1),
            (409, "replayed_request", .server, 1),
            (413, "payload_too_large", .invalidInput, 1),
            (419, "decryption_failed", .configuration, 1),
            (429, "rate_limited", .rateLimited, 2),
            (500, "internal", .server, 2),
            (502, "bad_gateway", .server, 2),
            (503, "unavailable", .server, 2),
            (504, "gateway_timeout", .server, 2),
            (404, "not_found", .configuration, 1),
            (418, "teapot", .configuration, 1),
            (501, "not_implemented", .server, 1),
            (302, "moved", .configuration, 1),
        ], [ZeroPiiWireProfile.protocolV1, .cleverTapCompatible])
    func everyStatusOfProtocolSection6(
        row: (Int, String, ZeroPiiErrorKind, Int), profile: ZeroPiiWireProfile
    )
        async throws
    {
        let (status, code, kind, requests) = row
        let server = InTestServer()
        for _ in 0..<3 {
            server.script(status: status, code: code, headers: code == "stale_request" ? ["Date": InTestServer.httpDate(Date())] : [:])
        }
        let client = makeClient(server: server, wireProfile: profile)
        let single = await client.tokenize("value")
        #expect(!single.isSuccess && single.errorKind == kind)
        #expect(single.httpStatusCode?.intValue == status)
        #expect(server.requests.count == requests)
        for _ in 0..<3 { server.script(status: status, code: code) }
        let batch = await client.batchTokenize(["a", "b"])
        #expect(!batch.isSuccess && batch.errorKind == kind && batch.httpStatusCode?.intValue == status)
        let sentEncrypted = server.requests.allSatisfy {
            profile == .cleverTapCompatible ? $0.header("Encrypted") == "true" : $0.header("X-ZeroPii-Encryption") == "v1"
        }
        #expect(sentEncrypted)
    }

    @Test func everyFailureTheSDKFindsItself() async throws {
        struct NotATransportError: Error {}
        let server = InTestServer()
        func client(
            provider: AccessTokenProvider = ScriptedProvider(), wireProfile: ZeroPiiWireProfile = .protocolV1,
            _ configure: @escaping (inout ZeroPiiConfiguration) -> Void = { _ in }
        ) -> TokenizationClient {
            makeClient(server: server, provider: provider, wireProfile: wireProfile, configure: configure)
        }
        func answering(_ response: TransportResponse) -> TokenizationClient {
            client { $0.transport = ClosureTransport { _ in response } }
        }
        func plainAnswering(_ body: String) -> TokenizationClient {
            client(wireProfile: .plaintext) { $0.transport = ClosureTransport.responding(statusCode: 200, body: Data(body.utf8)) }
        }
        let hanging = ClosureTransport { _ in
            try await Task.sleep(nanoseconds: 3_600 * 1_000_000_000)
            return TransportResponse(statusCode: 200)
        }
        var invalidURL = ZeroPiiConfiguration()
        invalidURL.transport = server.transport

        let cases: [(String, ZeroPiiErrorKind, () async -> (ZeroPiiErrorKind, NSNumber?))] = [
            (
                "empty batch", .invalidInput,
                {
                    let r = await client().batchTokenize([String]()); return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "1001 values", .invalidInput,
                {
                    let r = await client().batchTokenize(Array(0...1000)); return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "NaN", .invalidInput,
                {
                    let r = await client().tokenize(Double.nan); return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "infinite batch", .invalidInput,
                {
                    let r = await client().batchTokenize([Float.infinity]); return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "API URL", .configuration,
                {
                    let bad = TokenizationClient(
                        apiURL: "not a url", tokenProvider: SharedTokenProvider(ScriptedProvider()), retryPolicy: DefaultRetryPolicy(),
                        configuration: invalidURL, logger: SDKLogger(level: .off, handler: nil))
                    let r = await bad.tokenize("value")
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "provider error", .authentication,
                {
                    let r = await client(provider: ScriptedProvider(.answerWith(nil, NotATransportError()))).tokenize("v");
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "provider empty token", .authentication,
                {
                    let r = await client(provider: ScriptedProvider(.answerWith(nil, nil))).tokenize("v"); return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "provider timeout", .authentication,
                {
                    let r = await client(provider: ScriptedProvider(.never)) { $0.tokenProviderTimeout = 0 }.tokenize("v");
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "connection failed", .network,
                {
                    let r = await client { $0.transport = ClosureTransport.failing(with: .connectionFailed) }.tokenize("v");
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "attempt timed out", .network,
                {
                    let r = await client { $0.transport = ClosureTransport.failing(with: .timedOut) }.tokenize("v");
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "transport cancelled", .cancelled,
                {
                    let r = await client { $0.transport = ClosureTransport.failing(with: .cancelled) }.tokenize("v");
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "caller cancelled", .cancelled,
                {
                    let slow = client { $0.transport = hanging }
                    let task = Task {
                        withUnsafeCurrentTask { $0?.cancel() }
                        return await slow.tokenize("v")
                    }
                    let r = await task.value
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "call time limit", .timeout,
                {
                    let r = await client { $0.callTimeout = 0 }.tokenize("v"); return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "unencrypted answer", .invalidResponse,
                {
                    let r = await answering(TransportResponse(statusCode: 200, body: Data("{}".utf8))).tokenize("v");
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "undecryptable answer", .invalidResponse,
                {
                    let r = await answering(TransportResponse(statusCode: 200, headers: ["X-ZeroPii-Encryption": "v1"], body: Data("{}".utf8)))
                        .tokenize(
                            "v")
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "unreadable answer", .invalidResponse,
                {
                    let r = await plainAnswering("not json").tokenize("v"); return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "inconsistent answer", .invalidResponse,
                {
                    let r = await plainAnswering(#"{"token":"t","exists":true,"newlyCreated":true}"#).tokenize("v");
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "inconsistent batch", .invalidResponse,
                {
                    let body = #"{"results":[],"summary":{"processedCount":0,"existingCount":0,"newlyCreatedCount":0}}"#
                    let r = await plainAnswering(body).batchTokenize(["v"])
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
            (
                "a transport breaking its contract", .unexpected,
                {
                    let r = await client { $0.transport = ClosureTransport { _ in throw NotATransportError() } }.tokenize("v");
                    return (r.errorKind, r.httpStatusCode)
                }
            ),
        ]
        for (name, expected, run) in cases {
            let (kind, status) = await run()
            #expect(kind == expected, "\(name)")
            #expect(status == nil, "\(name)")
        }
    }

    @Test func refreshGuardAndSecond401AreAuthenticationFailures() async throws {
        let server = InTestServer(acceptedTokens: ["never-issued"])
        let client = makeClient(server: server, wireProfile: .plaintext)
        let first = await client.tokenize("v")
        #expect(first.errorKind == .authentication && first.httpStatusCode == 401)
        var last = first
        for _ in 0..<AccessTokenCache.maximumRefreshes { last = await client.tokenize("v") }
        #expect(last.errorKind == .authentication)
        #expect(last.errorMessage?.contains("refreshing stopped") == true)
    }
}
