import Foundation

/// The admin endpoints under `/__admin/`, served only with `MockServerConfiguration.adminEnabled`:
/// statistics, injected faults, revoking every access token, and resetting the faults.
extension TokenizationService {
    func admin(_ request: ServerRequest) -> ServerResponse {
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
            + "\"memoryBudgetRejections\":\(http.memoryBudgetRejections),\"bufferedRequestBytes\":\(http.bufferedRequestBytes)"
        let profiles = statistics.wireProfileCounts.map { ($0.key.rawValue, $0.value) }.sorted { $0.0 < $1.0 }
            .map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
        let body =
            "{\"requests\":{\(counts)},\"wireProfiles\":{\(profiles)},\"accessTokensIssued\":\(statistics.accessTokensIssued),\"valuesStored\":\(vault.count),"
            + "\"connections\":{\(connections)}}"
        return .json(status: 200, Data(body.utf8))
    }

    /// `POST /__admin/faults`: `{"kind": "status"|"drop"|"corrupt"|"downgrade"|"latency", ...}`.
    private func injectFault(_ body: Data) -> ServerResponse {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            let kind = object["kind"] as? String
        else { return HTTPServer.errorResponse(400, "invalid_fault", "expected {\"kind\": ..., \"count\": ...}") }
        let count = object["count"] as? Int ?? 1
        switch kind {
        case "status":
            guard let status = object["status"] as? Int, (100...599).contains(status) else {
                return HTTPServer.errorResponse(400, "invalid_fault", "a status fault needs a status between 100 and 599")
            }
            faults.inject(.status(status, retryAfter: object["retryAfter"] as? String), count: count)
        case "drop": faults.inject(.dropConnection, count: count)
        case "corrupt": faults.inject(.corruptCiphertext, count: count)
        case "downgrade": faults.inject(.downgrade, count: count)
        case "latency": faults.setLatency(Double(object["milliseconds"] as? Int ?? 0) / 1000)
        default: return HTTPServer.errorResponse(400, "invalid_fault", "unknown fault kind")
        }
        return Self.adminDone
    }
}
