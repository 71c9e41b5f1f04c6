import CleverTapZeroPiiSDK
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Gets access tokens from the mock server's OAuth endpoint with its demo client
/// (`zeropii serve --demo-client`). Only a sample does this: a real app asks its own
/// backend for a token and never holds a client secret.
enum MockServerTokens {
    struct Refused: LocalizedError {
        let status: Int
        var errorDescription: String? { "the mock server's token endpoint answered HTTP \(status)" }
    }

    /// The SDK's token provider for the API at `apiURL`.
    static func provider(apiURL: String) -> AsyncAccessTokenProvider {
        AsyncAccessTokenProvider { try await requestToken(tokenURL: apiURL + "oauth/token") }
    }

    /// The OAuth2 client-credentials grant (RFC 6749, section 4.4).
    static func requestToken(tokenURL: String) async throws -> AccessTokenInfo {
        guard let url = URL(string: tokenURL) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("grant_type=client_credentials&client_id=zeropii-demo&client_secret=zeropii-demo-secret".utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw Refused(status: status) }
        let grant = try JSONDecoder().decode(Grant.self, from: body)
        return AccessTokenInfo(token: grant.accessToken, expiresInSeconds: grant.expiresIn)
    }

    private struct Grant: Decodable {
        let accessToken: String
        let expiresIn: Int

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
        }
    }
}
