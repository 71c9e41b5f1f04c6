import Foundation

/// `POST /oauth/token` (Docs/Protocol.md section 8): the client credentials grant.
extension TokenizationService {
    func issueToken(_ request: ServerRequest) -> ServerResponse {
        let (form, repeated) = Self.formFields(request.body)
        // RFC 6749, section 3.2: no parameter may appear twice. Taking the last (or first)
        // of two client_secret values would let a proxy or a logging layer that reads the
        // other one see a different request than the one authenticated.
        if let repeated {
            return HTTPServer.errorResponse(400, "invalid_request", "the parameter '\(repeated)' is given more than once")
        }
        guard form["grant_type"] == "client_credentials" else {
            return HTTPServer.errorResponse(400, "unsupported_grant_type", "only grant_type=client_credentials is supported")
        }
        if let refusal = Self.repeatedAuthorizationRefusal(request) { return refusal }
        var clientID = form["client_id"] ?? ""
        var secret = form["client_secret"] ?? ""
        let authorization = request.header("Authorization")
        if let authorization {
            // RFC 6749, section 2.3.1: HTTP Basic, or the body, never both at once.
            guard form["client_id"] == nil && form["client_secret"] == nil else {
                return HTTPServer.errorResponse(
                    400, "invalid_request", "client credentials are in both the Authorization header and the body; send them in one")
            }
            guard let credentials = Self.basicCredentials(authorization) else {
                return HTTPServer.errorResponse(400, "invalid_request", "the Authorization header is not HTTP Basic client credentials")
            }
            (clientID, secret) = credentials
        }
        switch authenticator.authenticate(clientID: clientID, secret: secret, address: request.remoteAddress) {
        case .granted:
            break
        case .denied:
            var response = HTTPServer.errorResponse(401, "invalid_client", "the client id or secret is wrong")
            // RFC 6749, section 5.2: a client that tried Basic is told the scheme.
            if authorization != nil { response.headers.append(("WWW-Authenticate", #"Basic realm="zeropii""#)) }
            return response
        case .limited(let seconds):
            var response = HTTPServer.errorResponse(429, "too_many_attempts", "too many failed attempts; retry later")
            response.headers.append(("Retry-After", String(seconds)))
            return response
        }
        statistics.recordAccessTokenIssued()
        let body = "{\"access_token\":\"\(issuer.issue())\",\"token_type\":\"Bearer\",\"expires_in\":\(issuer.lifetimeSeconds)}"
        return .json(status: 200, Data(body.utf8), headers: [("Cache-Control", "no-store")])
    }

    /// The client id and secret of an `Authorization: Basic` header: Base64 of
    /// `id:secret`, each form-encoded (RFC 6749, section 2.3.1). What `curl -u id:secret`
    /// sends reads the same unless the secret holds `+` or `%`, which form encoding
    /// turns into a space and an escape (send them as `%2B` and `%25`). Nil when the
    /// header is not that.
    static func basicCredentials(_ authorization: String) -> (id: String, secret: String)? {
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        func formDecoded(_ part: Substring) -> String {
            part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
        }
        return (formDecoded(text[..<colon]), formDecoded(text[text.index(after: colon)...]))
    }

    /// The fields of a form body, and the name of the first one given twice, if any (a
    /// name of at most 32 characters, since it goes into the error message; never a
    /// value).
    static func formFields(_ body: Data) -> (fields: [String: String], repeated: String?) {
        var fields: [String: String] = [:]
        var repeated: String?
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            let name = decode(parts[0])
            if fields[name] != nil && repeated == nil { repeated = String(name.prefix(32)) }
            fields[name] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return (fields, repeated)
    }
}
