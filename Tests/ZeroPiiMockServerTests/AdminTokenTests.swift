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
            for wrong in [nil, "Bearer", "Bearer ", "Bearer \(token.dropLast())", "Bearer \(token)x", "Bearer  \(token)", "Basic \(token)", token] {
                let (status, body) = Self.status(service, method, path, authorization: wrong, body: #"{"kind":"drop"}"#)
                #expect(status == 401 && body.contains("invalid_admin_token"), "\(path) with \(wrong ?? "nothing")")
            }
        }
        #expect(service.faults.next().fault == nil, "no refused request injected a fault")
        #expect(Self.status(service, "GET", "/__admin/stats", authorization: "Bearer \(token)").0 == 200)
        #expect(Self.status(service, "GET", "/__admin/stats", authorization: "bearer \(token)").0 == 200, "the scheme is case-insensitive")
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

    /// Found from outside: with two Authorization headers the first won, so a proxy that
    /// read the second saw another request than the one let through.
    @Test func twoAuthorizationHeadersAreRefused() {
        let token = MockServerConfiguration.makeAdminToken()
        let service = Self.service(adminToken: token)
        for pair in [["Bearer \(token)", "Bearer junk"], ["Bearer junk", "Bearer \(token)"]] {
            let request = ServerRequest(method: "GET", path: "/__admin/stats", query: "", headers: pair.map { ("authorization", $0) }, body: Data())
            guard case .respond(let response) = service.handle(request) else { continue }
            #expect(response.status == 400 && String(decoding: response.body, as: UTF8.self).contains("duplicate_header"))
        }
    }

    /// Found from outside: a status fault of 204 or 304 went out with a body, which those
    /// statuses cannot carry; and a field a fault kind does not have was ignored.
    @Test func faultsWithoutABodyOrWithUnknownFieldsAreRefused() {
        let service = Self.service(adminToken: nil)
        for status in [204, 205, 304] {
            let (code, body) = Self.status(service, "POST", "/__admin/faults", authorization: nil, body: #"{"kind":"status","status":\#(status)}"#)
            #expect(code == 400 && body.contains("other than 204, 205 and 304"), "\(status)")
        }
        let (code, body) = Self.status(service, "POST", "/__admin/faults", authorization: nil, body: #"{"kind":"drop","extra":1}"#)
        #expect(code == 400 && body.contains("a drop fault has no field 'extra'; its fields are count, kind"))
        let (oddCode, oddBody) = Self.status(service, "POST", "/__admin/faults", authorization: nil, body: #"{"kind":"drop","<script>":1}"#)
        #expect(oddCode == 400 && oddBody.contains("a drop fault has a field it does not know") && !oddBody.contains("<script>"))
        #expect(service.faults.next().fault == nil)
    }
}
