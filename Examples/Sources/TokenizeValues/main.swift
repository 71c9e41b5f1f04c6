// Tokenizes the values given on the command line, the way a Swift server would:
//
//     swift run --package-path Examples tokenize-values alice@example.com "+1 (555) 010-2345" 42
//
// It reaches the tokenization API at $ZEROPII_API_URL (default http://127.0.0.1:8080/,
// where `swift run zeropii serve --demo-client` listens) and gets access tokens with the OAuth2
// client-credentials grant at $ZEROPII_TOKEN_URL (default: the API's oauth/token), as
// $ZEROPII_CLIENT_ID with the secret in $ZEROPII_CLIENT_SECRET (default: the mock
// server's demo client).
import CleverTapZeroPiiSDK
import Foundation

let environment = ProcessInfo.processInfo.environment
let apiURL = environment["ZEROPII_API_URL"] ?? "http://127.0.0.1:8080/"
let credentials = ClientCredentials(
    tokenURL: environment["ZEROPII_TOKEN_URL"] ?? apiURL + "oauth/token",
    clientID: environment["ZEROPII_CLIENT_ID"] ?? "zeropii-demo",
    clientSecret: environment["ZEROPII_CLIENT_SECRET"] ?? "zeropii-demo-secret"
)

let values = Array(CommandLine.arguments.dropFirst())
guard !values.isEmpty, !values.contains("--help") else {
    print("usage: tokenize-values VALUE...   (whole numbers are tokenized as numbers, the rest as strings)")
    exit(values.isEmpty ? 2 : 0)
}

// The SDK asks the provider for a token when it needs one, and again after a 401. Its
// own error says only that the provider failed, so the reason is reported here.
let tokenProvider = AsyncAccessTokenProvider {
    do {
        return try await credentials.requestAccessToken()
    } catch {
        FileHandle.standardError.write(Data("tokenize-values: no access token from \(credentials.tokenURL): \(error.localizedDescription)\n".utf8))
        throw error
    }
}
// Errors are printed below, from the results, so the SDK's own log stays off.
let sdk = ZeroPiiSDK.initialize(tokenProvider: tokenProvider, apiUrl: apiURL, logLevel: .off)

/// Sends `values` in batch requests of at most 1,000, the service's limit per request.
func tokenizeInBatches<Value>(_ values: [Value], with tokenize: ([Value]) async -> BatchTokenizeResult) async -> [BatchTokenizeResult] {
    var results: [BatchTokenizeResult] = []
    for start in stride(from: 0, to: values.count, by: 1000) {
        results.append(await tokenize(Array(values[start..<min(start + 1000, values.count)])))
    }
    return results
}

// Numbers keep their type, so the service gives them numeric tokens.
let numbers = values.compactMap { Int64($0) }
let strings = values.filter { Int64($0) == nil }
let batches = await tokenizeInBatches(strings, with: sdk.batchTokenize) + tokenizeInBatches(numbers, with: sdk.batchTokenize)

var failed = false
for batch in batches {
    guard batch.isSuccess, let summary = batch.summary else {
        // The error message never holds a value or a token, so it is safe to log. The
        // kind, not the message's wording, says what to do about it.
        let status = batch.httpStatusCode.map { " (HTTP \($0))" } ?? ""
        let hint: String
        switch batch.errorKind {
        case .authentication: hint = "; check ZEROPII_CLIENT_ID, ZEROPII_CLIENT_SECRET and ZEROPII_TOKEN_URL"
        case .configuration: hint = "; check ZEROPII_API_URL"
        case .network, .timeout: hint = "; is the API at \(apiURL) running? (`swift run zeropii serve`)"
        case .rateLimited, .server: hint = "; try again later"
        default: hint = ""
        }
        FileHandle.standardError.write(Data("tokenize-values: \(batch.errorMessage ?? "unknown error")\(status)\(hint)\n".utf8))
        failed = true
        continue
    }
    for item in batch.results {
        print("\(item.originalValue) -> \(item.token)  [\(item.dataType ?? "?"), \(item.newlyCreated ? "new" : "existing")]")
    }
    print("\(summary.processedCount) values: \(summary.newlyCreatedCount) new, \(summary.existingCount) existing")
}
exit(failed ? 1 : 0)
