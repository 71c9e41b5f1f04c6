import Foundation
import ZeroPiiSDK
import ZeroPiiTransport
import ZeroPiiWire

/// The OAuth2 client-credentials flow (Docs/Protocol.md section 8) against `tokenURL`.
struct ClientCredentialsGrant: Sendable {
    let tokenURL: URL
    let clientID: String
    let clientSecret: String
    /// What the token requests go through.
    let transport: any HTTPTransport

    /// Why no token came: the endpoint's URL (without secrets), its HTTP status and
    /// error code, or the network failure in words. Never the secret.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func requestToken() async throws -> AccessTokenInfo {
        func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
        }
        let request = TransportRequest(
            method: "POST", url: tokenURL, headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data("grant_type=client_credentials&client_id=\(encode(clientID))&client_secret=\(encode(clientSecret))".utf8),
            timeout: 30)
        let shownURL = NetworkFailureText.redacted(tokenURL)
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw Failure(description: "could not reach the token endpoint \(shownURL): \(NetworkFailureText.describe(error))")
        }
        let status = response.statusCode
        let data = response.body
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        guard status == 200 else {
            let code = Self.errorCode(in: json)
            var text = "the token endpoint \(shownURL) answered \(status)" + (code.map { " \($0)" } ?? "")
            if status == 401 || code == "invalid_client" || code == "unauthorized_client" {
                text += ": check --client-id and \(ServerConnection.clientSecretVariable)"
            } else if status == 404 {
                text += ": check --token-url"
            } else if status == 429 || status == 503 {
                text += ": it is busy or limiting requests; try again later"
            }
            throw Failure(description: text)
        }
        guard let token = json?["access_token"] as? String, !token.isEmpty else {
            throw Failure(description: "the token endpoint \(shownURL) answered 200 without an access_token")
        }
        return AccessTokenInfo(token: token, expiresInSeconds: json?["expires_in"] as? Int ?? 0)
    }

    /// The OAuth2 `error` (RFC 6749 section 5.2) or the mock server's `error.code`, when it
    /// is one of those the RFC or the protocol documents. Any other text is the server's own
    /// and is not passed on: a faulty or hostile endpoint could put the client secret there.
    static func errorCode(in json: [String: Any]?) -> String? {
        let code = (json?["error"] as? String) ?? ((json?["error"] as? [String: Any])?["code"] as? String)
        guard let code, oauthErrors.contains(code) || WireErrorCode.documented.contains(code) else { return nil }
        return code
    }

    /// RFC 6749 section 5.2's error codes.
    static let oauthErrors: Set<String> = [
        "invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope",
    ]
}
