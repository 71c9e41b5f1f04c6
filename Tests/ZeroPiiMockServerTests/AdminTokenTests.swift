import Foundation
import Testing
import ZeroPiiModels

@testable import ZeroPiiMockServer

/// The admin endpoints with and without an admin token configured.
struct AdminTokenTests {
    static func service(adminToken: String?) -> TokenizationService {
        var configuration = MockServerConfiguration()
        configuration.adminEnabled = true
        configuration.adminToken = adminToken
        return TokenizationService(configuration: configuration, vault: TokenVault())
    }

    static func status(_ service: TokenizationService, _ method: String, _ path: String, authorization: String?, body: String = "") -> (Int, String) {
        let headers = authorization.map { [("authorization", $0)] } ?? []
        let request = ServerRequest(method: method, path: path, query: "", headers: headers, body: Data(body.utf8))
        guard case .respond(let response) = service.handle(request) else { return (0, "") }
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test func withATokenEveryAdminEndpointNeedsItExactly() {
        let token = MockServerConfiguration.makeAdminToken()
        let service = Self.service(adminToken: token)
        let endpoints = [("GET", "/__admin/stats"), ("POST", "/__admin/faults"), ("POST", "/__admin/expire-tokens"), ("POST", "/__admin/reset")]
        for (method, path) in endpoints {
            for wrong in [nil, "Bearer", "Bearer ", "Bearer \(token.dropLast())", "Bearer \(token)x", "bearer \(token)", "Basic \(token)", token] {
                let (status, body) = Self.status(service, method, path, authorization: wrong, body: #"{"kind":"drop"}"#)
                #expect(status == 401 && body.contains("invalid_admin_token"), "\(path) with \(wrong ?? "nothing")")
            }
        }
        #expect(service.faults.next().fault == nil, "no refused request injected a fault")
        #expect(Self.status(service, "GET", "/__admin/stats", authorization: "Bearer \(token)").0 == 200)
        #expect(Self.status(service, "POST", "/__admin/faults", authorization: "Bearer \(token)", body: #"{"kind":"drop"}"#).0 == 200)
        #expect(service.faults.next().fault != nil)
    }

    @Test func withoutATokenTheEndpointsTakeNoCredentials() {
        let service = Self.service(adminToken: nil)
        #expect(Self.status(service, "GET", "/__admin/stats", authorization: nil).0 == 200)
    }

    @Test func madeTokensAreLongRandomAndHeaderSafe() {
        let tokens = (0..<100).map { _ in MockServerConfiguration.makeAdminToken() }
        #expect(Set(tokens).count == 100)
        for token in tokens {
            #expect(token.count == 43)
            #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        }
    }
}
