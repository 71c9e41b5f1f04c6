import Foundation
import ZeroPiiCrypto
import ZeroPiiModels
import ZeroPiiTestSupport
import ZeroPiiTransport

/// A small in-test implementation of the server side of Docs/Protocol.md: bearer check,
/// v1 envelope open and seal (through ZeroPiiCrypto's `PayloadEnvelope`), the
/// CleverTap-compatible envelope of section 9 (with `AES.GCM` directly), tokenize and
/// batch, and scripted faults. Tokens are deterministic: `tok_` and the first bytes of
/// the value's SHA-256.
final class InTestServer: @unchecked Sendable {
    // Sendable: all state is guarded by `lock`.
    private let lock = NSLock()
    private var known: Set<String> = []
    private var scripted: [(TransportRequest) -> TransportResponse?] = []
    private var received: [TransportRequest] = []
    private var acceptedTokens: Set<String>
    var serverClockOffset: TimeInterval = 0

    init(acceptedTokens: Set<String> = []) {
        self.acceptedTokens = acceptedTokens
    }

    var requests: [TransportRequest] { lock.withLock { received } }

    /// The next request is answered by `response` instead of the server logic (when it
    /// returns non-nil).
    func script(_ response: @escaping (TransportRequest) -> TransportResponse?) {
        lock.withLock { scripted.append(response) }
    }

    func script(status: Int, code: String = "scripted", headers: [String: String] = [:]) {
        script { _ in InTestServer.errorResponse(status: status, code: code, headers: headers) }
    }

    func accept(token: String) { lock.withLock { _ = acceptedTokens.insert(token) } }
    func revoke(token: String) { lock.withLock { _ = acceptedTokens.remove(token) } }

    var transport: ClosureTransport {
        ClosureTransport { [self] request in self.handle(request) }
    }

    static func token(for value: String) -> String {
        "tok_" + SHA256.hash(data: Data(value.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
    }

    static func errorResponse(status: Int, code: String, headers: [String: String] = [:]) -> TransportResponse {
        let body = try! JSONEncoder().encode(WireBodies.ErrorResponse(code: code, message: "scripted failure"))
        return TransportResponse(statusCode: status, headers: headers.merging(["Date": httpDate(Date())]) { a, _ in a }, body: body)
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    func handle(_ request: TransportRequest) -> TransportResponse {
        let override: ((TransportRequest) -> TransportResponse?)? = lock.withLock {
            received.append(request)
            return scripted.isEmpty ? nil : scripted.removeFirst()
        }
        if let override, let response = override(request) { return response }

        guard let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer ") else {
            return Self.errorResponse(status: 401, code: "unauthorized")
        }
        let accessToken = String(authorization.dropFirst("Bearer ".count))
        let tokenAccepted = lock.withLock { acceptedTokens.isEmpty || acceptedTokens.contains(accessToken) }
        guard tokenAccepted else { return Self.errorResponse(status: 401, code: "unauthorized") }

        let batch = request.url.path.hasSuffix("/tokenize/batch")
        let operation = batch ? "tokenize/batch" : "tokenize"
        var plaintext = request.body
        var envelope: PayloadEnvelope?
        var cleverTapKey: SymmetricKey?
        if request.header("Encrypted") == "true" {
            guard let wire = try? JSONDecoder().decode(WireBodies.CleverTapEnvelopeRequest.self, from: request.body),
                let key = Data(base64Encoded: wire.itk), key.count == 32, let iv = Data(base64Encoded: wire.itv), iv.count == 12,
                let sealed = Data(base64Encoded: wire.itp)
            else { return Self.errorResponse(status: 400, code: "bad_envelope") }
            guard let box = try? AES.GCM.SealedBox(combined: iv + sealed),
                let opened = try? AES.GCM.open(box, using: SymmetricKey(data: key))
            else { return Self.errorResponse(status: 419, code: "decryption_failed") }
            plaintext = opened
            cleverTapKey = SymmetricKey(data: key)
        } else if request.header("X-ZeroPii-Encryption") == "v1" {
            guard let wire = try? JSONDecoder().decode(WireBodies.EnvelopeRequest.self, from: request.body),
                let salt = Data(base64Encoded: wire.salt), let iv = Data(base64Encoded: wire.iv),
                let ciphertext = Data(base64Encoded: wire.ct),
                let opener = try? PayloadEnvelope(accessToken: accessToken, operation: operation, requestID: wire.rid, timestamp: wire.ts, salt: salt)
            else { return Self.errorResponse(status: 400, code: "bad_envelope") }
            guard abs(Double(wire.ts) - (Date().timeIntervalSince1970 + serverClockOffset)) <= 300 else {
                return Self.errorResponse(
                    status: 400, code: "stale_request", headers: ["Date": Self.httpDate(Date().addingTimeInterval(serverClockOffset))])
            }
            guard let opened = try? opener.openRequest(SealedPayload(iv: iv, ciphertext: ciphertext)) else {
                return Self.errorResponse(status: 419, code: "decryption_failed")
            }
            plaintext = opened
            envelope = opener
        }

        let body: Data
        if batch {
            guard let decoded = try? JSONDecoder().decode(WireBodies.BatchTokenizeRequest.self, from: plaintext) else {
                return Self.errorResponse(status: 400, code: "bad_json")
            }
            var items: [WireBodies.BatchTokenizeItem] = []
            for value in decoded.values {
                let isNew = lock.withLock { known.insert(value).inserted }
                items.append(
                    .init(originalValue: value, token: Self.token(for: value), exists: !isNew, newlyCreated: isNew, dataType: Self.dataType(value)))
            }
            let summary = WireBodies.BatchTokenizeSummary(
                processedCount: items.count, existingCount: items.filter(\.exists).count,
                newlyCreatedCount: items.filter(\.newlyCreated).count
            )
            body = try! JSONEncoder().encode(WireBodies.BatchTokenizeResponse(results: items, summary: summary))
        } else {
            guard let decoded = try? JSONDecoder().decode(WireBodies.TokenizeRequest.self, from: plaintext) else {
                return Self.errorResponse(status: 400, code: "bad_json")
            }
            let isNew = lock.withLock { known.insert(decoded.value).inserted }
            body = try! JSONEncoder().encode(
                WireBodies.TokenizeResponse(
                    token: Self.token(for: decoded.value), exists: !isNew, newlyCreated: isNew, dataType: Self.dataType(decoded.value))
            )
        }
        if let cleverTapKey {
            let sealed = try! AES.GCM.seal(body, using: cleverTapKey)
            let wire = WireBodies.CleverTapEnvelopeResponse(
                itp: (sealed.ciphertext + sealed.tag).base64EncodedString(), itv: Data(sealed.nonce).base64EncodedString())
            return TransportResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: try! JSONEncoder().encode(wire))
        }
        guard let envelope else {
            return TransportResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body)
        }
        let sealed = try! envelope.sealResponse(body)
        let wire = WireBodies.EnvelopeResponse(
            v: 1, rid: envelope.requestID, iv: sealed.iv.base64EncodedString(), ct: sealed.ciphertext.base64EncodedString())
        return TransportResponse(
            statusCode: 200, headers: ["X-ZeroPii-Encryption": "v1", "Content-Type": "application/json"], body: try! JSONEncoder().encode(wire))
    }

    static func dataType(_ value: String) -> String {
        value.range(of: #"^-?[0-9]+(\.[0-9]+)?(E-?[0-9]+)?$"#, options: .regularExpression) != nil ? "number" : "string"
    }
}
