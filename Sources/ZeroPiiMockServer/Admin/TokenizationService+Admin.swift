import Foundation

/// The admin endpoints under `/__admin/`, served only with `MockServerConfiguration.adminEnabled`
/// and, when `MockServerConfiguration.adminToken` is set, only to requests that bear it:
/// statistics, injected faults, revoking every access token, and resetting the faults.
extension TokenizationService {
    func admin(_ request: ServerRequest) -> ServerResponse {
        if adminTokenCheck != nil, let refusal = Self.repeatedAuthorizationRefusal(request) { return refusal }
        if let adminTokenCheck, !adminTokenCheck.accepts(authorization: request.header("Authorization")) {
            return HTTPServer.errorResponse(
                401, "invalid_admin_token", "the admin endpoints need this server's admin token (Authorization: Bearer …)")
        }
        switch (request.method, request.path) {
        case ("GET", "/__admin/stats"):
            return statisticsBody()
        case ("POST", "/__admin/faults"):
            return injectFault(request.body)
        case ("POST", "/__admin/expire-tokens"):
            issuer.revokeAll()
            return Self.adminDone
        case ("POST", "/__admin/reset"):
            faults.reset()
            return Self.adminDone
        default:
            return HTTPServer.errorResponse(404, "not_found", "no such admin endpoint")
        }
    }

    private static let adminDone = ServerResponse.json(status: 200, Data(#"{"ok":true}"#.utf8))

    /// `GET /__admin/stats`: requests per endpoint and status, wire profiles, tokens
    /// issued, values stored, and the HTTP server's connection figures.
    private func statisticsBody() -> ServerResponse {
        let counts = statistics.requestCounts.sorted { $0.key < $1.key }
            .map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
        let http = statistics.connections
        let connections =
            "\"acceptErrors\":\(http.acceptErrors),\"requestTimeouts\":\(http.requestTimeouts),\"writeTimeouts\":\(http.writeTimeouts),"
            + "\"memoryBudgetRejections\":\(http.memoryBudgetRejections),\"bufferedRequestBytes\":\(http.bufferedRequestBytes),"
            + "\"refusedConnections\":\(http.refusedConnections),\"admittedConnections\":\(http.admittedConnections),"
            + "\"peakOpenConnections\":\(http.peakOpenConnections)"
        let profiles = statistics.wireProfileCounts.map { ($0.key.rawValue, $0.value) }.sorted { $0.0 < $1.0 }
            .map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
        let body =
            "{\"requests\":{\(counts)},\"wireProfiles\":{\(profiles)},\"accessTokensIssued\":\(statistics.accessTokensIssued),\"valuesStored\":\(vault.count),"
            + "\"connections\":{\(connections)}}"
        return .json(status: 200, Data(body.utf8))
    }

    /// `POST /__admin/faults`: `{"kind": "status"|"drop"|"corrupt"|"downgrade"|"latency", ...}`.
    /// Every field is checked, and a field the kind does not have is refused: `count` 1 to
    /// ``FaultInjector/maximumCount``, `status` 200 to 599 but 204, 205 and 304 (a 1xx
    /// would break the framing of the answer, and those three carry no body), `retryAfter` a whole number
    /// of seconds (written into a header, so nothing else may pass), `milliseconds` 0 to
    /// 60,000.
    private func injectFault(_ body: Data) -> ServerResponse {
        func refuse(_ message: String) -> ServerResponse { HTTPServer.errorResponse(400, "invalid_fault", message) }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            let kind = object["kind"] as? String
        else { return refuse("expected {\"kind\": ..., \"count\": ...}") }
        let fields: [String: Set<String>] = [
            "status": ["kind", "count", "status", "retryAfter"], "drop": ["kind", "count"], "corrupt": ["kind", "count"],
            "downgrade": ["kind", "count"], "latency": ["kind", "milliseconds"],
        ]
        if let allowed = fields[kind], let unknown = object.keys.filter({ !allowed.contains($0) }).sorted().first {
            // Named only when short and plain, since it goes into the answer.
            let named =
                unknown.count <= 32 && unknown.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
                ? "no field '\(unknown)'" : "a field it does not know"
            return refuse("a \(kind) fault has \(named); its fields are \(allowed.sorted().joined(separator: ", "))")
        }
        let count: Int
        switch object["count"] {
        case nil: count = 1
        case let number as Int where (1...FaultInjector.maximumCount).contains(number): count = number
        default: return refuse("count is a whole number from 1 to \(FaultInjector.maximumCount)")
        }
        switch kind {
        case "status":
            // 204, 205 and 304 carry no body (RFC 9110), and a fault's answer has one.
            guard let status = object["status"] as? Int, (200...599).contains(status), ![204, 205, 304].contains(status) else {
                return refuse("a status fault needs a status from 200 to 599 other than 204, 205 and 304")
            }
            var retryAfter: String?
            switch object["retryAfter"] {
            case nil: retryAfter = nil
            case let seconds as Int where (0...86_400).contains(seconds): retryAfter = String(seconds)
            case let text as String where Self.isDeltaSeconds(text): retryAfter = text
            default: return refuse("retryAfter is a whole number of seconds from 0 to 86400")
            }
            faults.inject(.status(status, retryAfter: retryAfter), count: count)
        case "drop": faults.inject(.dropConnection, count: count)
        case "corrupt": faults.inject(.corruptCiphertext, count: count)
        case "downgrade": faults.inject(.downgrade, count: count)
        case "latency":
            guard let milliseconds = object["milliseconds"] as? Int, (0...60_000).contains(milliseconds) else {
                return refuse("a latency needs milliseconds from 0 to 60000")
            }
            faults.setLatency(Double(milliseconds) / 1000)
        default: return refuse("unknown fault kind")
        }
        return Self.adminDone
    }

    /// `Retry-After`'s delta-seconds: 1 to 5 digits, at most 86400.
    private static func isDeltaSeconds(_ text: String) -> Bool {
        (1...5).contains(text.utf8.count) && text.utf8.allSatisfy { (0x30...0x39).contains($0) } && (Int(text) ?? .max) <= 86_400
    }
}
