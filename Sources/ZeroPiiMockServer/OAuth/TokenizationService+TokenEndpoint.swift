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
        switch authenticator.authenticate(clientID: form["client_id"] ?? "", secret: form["client_secret"] ?? "", address: request.remoteAddress) {
        case .granted:
            break
        case .denied:
            return HTTPServer.errorResponse(401, "invalid_client", "the client id or secret is wrong")
        case .limited(let seconds):
            var response = HTTPServer.errorResponse(429, "too_many_attempts", "too many failed attempts; retry later")
            response.headers.append(("Retry-After", String(seconds)))
            return response
        }
        statistics.recordAccessTokenIssued()
        let body = "{\"access_token\":\"\(issuer.issue())\",\"token_type\":\"Bearer\",\"expires_in\":\(issuer.lifetimeSeconds)}"
        return .json(status: 200, Data(body.utf8), headers: [("Cache-Control", "no-store")])
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
