import CleverTapZeroPiiSDK
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An OAuth2 client of the tokenization service's auth server: the usual way a backend
/// service gets access tokens. (An app would ask its own backend instead, and never
/// hold a client secret.)
struct ClientCredentials: Sendable {
    let tokenURL: String
    let clientID: String
    let clientSecret: String

    struct Refused: LocalizedError {
        let status: Int
        var errorDescription: String? { "the token endpoint refused the client credentials (HTTP \(status))" }
    }

    /// Runs the client-credentials grant (RFC 6749, section 4.4) and returns the token
    /// with its lifetime, which the SDK uses to refresh it shortly before it expires.
    func requestAccessToken() async throws -> AccessTokenInfo {
        guard let url = URL(string: tokenURL) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let form = [("grant_type", "client_credentials"), ("client_id", clientID), ("client_secret", clientSecret)]
        request.httpBody = Data(form.map { "\($0)=\(formEncoded($1))" }.joined(separator: "&").utf8)

        let (body, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw Refused(status: status) }
        let grant = try JSONDecoder().decode(TokenResponse.self, from: body)
        return AccessTokenInfo(token: grant.accessToken, expiresInSeconds: grant.expiresIn)
    }

    private struct TokenResponse: Decodable {
        let accessToken: String
        let expiresIn: Int

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
        }
    }

    private func formEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
