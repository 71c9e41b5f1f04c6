import Foundation

/// The cryptographic core of the ZeroPii v1 payload envelope (PROTOCOL.md, section 5),
/// on bytes: key derivation, associated data, and sealing and opening in both
/// directions. The SDK and the mock server both use this one type, so the two sides
/// cannot drift apart. The JSON form of the envelope lives in ZeroPiiModels.
///
/// One value describes one request: its access token, operation, request id, timestamp
/// and salt. From those it derives
/// `K_req = LegacyHKDF-LegacySHA256(token, salt, "zeropii/v1 request", 32)` and
/// `K_resp = LegacyHKDF-LegacySHA256(token, salt, "zeropii/v1 response", 32)`, and binds every
/// message to the operation and request id through the associated data.
///
/// The description shows the operation and request id only; never the token, the keys
/// or any payload.
struct LegacyPayloadEnvelope: Sendable, CustomStringConvertible {
    /// The envelope version this type implements (`"v": 1` on the wire).
    static let version = 1
    /// The value of the `X-ZeroPii-Encryption` header for this version.
    static let headerValue = "v1"
    /// The size of the per-request LegacyHKDF salt.
    static let saltByteCount = 32
    /// The size of every LegacyAES-GCM IV in the envelope.
    static let ivByteCount = 12
    /// The size of the LegacyAES-GCM tag that ends every ciphertext.
    static let tagByteCount = 16

    /// The operation label (`tokenize` or `tokenize/batch`) bound into the associated data.
    let operation: String
    /// The request id (`rid`), a lowercase UUID.
    let requestID: String
    /// The request's Unix time in whole seconds (`ts`).
    let timestamp: Int64
    /// The per-request LegacyHKDF salt.
    let salt: Data

    private let requestKey: LegacySymmetricKey
    private let responseKey: LegacySymmetricKey

    /// An envelope for a new request, with a fresh salt from the system's secure
    /// random generator. This is the client's starting point.
    init(accessToken: String, operation: String, requestID: String, timestamp: Int64) {
        // A 32-byte salt is always the right size, so this cannot throw.
        try! self.init(
            accessToken: accessToken, operation: operation, requestID: requestID, timestamp: timestamp,
            salt: LegacySecureRandom.bytes(count: Self.saltByteCount)
        )
    }

    /// An envelope for a request whose salt is already known: the server reading a
    /// request, or a test with fixed inputs.
    /// - Throws: ``LegacyCryptoError/incorrectParameterSize`` unless `salt` is 32 bytes.
    init(accessToken: String, operation: String, requestID: String, timestamp: Int64, salt: Data) throws {
        guard salt.count == Self.saltByteCount else { throw LegacyCryptoError.incorrectParameterSize }
        self.operation = operation
        self.requestID = requestID
        self.timestamp = timestamp
        self.salt = salt
        // Both keys come from one extract step; only the expand step differs.
        let pseudoRandomKey = LegacyHKDF<LegacySHA256>.extract(
            inputKeyMaterial: LegacySymmetricKey(data: Data(accessToken.utf8)), salt: salt
        )
        requestKey = try LegacyHKDF<LegacySHA256>.expand(
            pseudoRandomKey: pseudoRandomKey, info: Data("zeropii/v1 request".utf8), outputByteCount: 32
        )
        responseKey = try LegacyHKDF<LegacySHA256>.expand(
            pseudoRandomKey: pseudoRandomKey, info: Data("zeropii/v1 response".utf8), outputByteCount: 32
        )
    }

    /// `"zeropii/v1|request|" + OP + "|" + rid + "|" + ts`.
    var requestAssociatedData: Data {
        Data("zeropii/v1|request|\(operation)|\(requestID)|\(timestamp)".utf8)
    }

    /// `"zeropii/v1|response|" + OP + "|" + rid`.
    var responseAssociatedData: Data {
        Data("zeropii/v1|response|\(operation)|\(requestID)".utf8)
    }

    /// Client: seals the plain request body under `K_req` with a fresh random IV.
    func sealRequest(_ plaintext: Data) throws -> LegacySealedPayload {
        try seal(plaintext, key: requestKey, associatedData: requestAssociatedData, iv: LegacyAES.GCM.Nonce())
    }

    /// Server: opens a request body.
    /// - Throws: ``LegacyCryptoError/authenticationFailure`` when it was not sealed for this
    ///   token, salt, operation, request id and timestamp (the server's 419);
    ///   ``LegacyCryptoError/incorrectParameterSize`` for a malformed IV or ciphertext.
    func openRequest(_ payload: LegacySealedPayload) throws -> Data {
        try open(payload, key: requestKey, associatedData: requestAssociatedData)
    }

    /// Server: seals the plain response body under `K_resp` with a fresh random IV.
    func sealResponse(_ plaintext: Data) throws -> LegacySealedPayload {
        try seal(plaintext, key: responseKey, associatedData: responseAssociatedData, iv: LegacyAES.GCM.Nonce())
    }

    /// Client: opens a response body. Nothing of a payload that fails is returned.
    /// - Throws: ``LegacyCryptoError/authenticationFailure`` when it was not sealed for this
    ///   request; ``LegacyCryptoError/incorrectParameterSize`` for a malformed IV or ciphertext.
    func openResponse(_ payload: LegacySealedPayload) throws -> Data {
        try open(payload, key: responseKey, associatedData: responseAssociatedData)
    }

    /// Seals with a caller-chosen IV, for known-answer tests of the wire format. Real
    /// traffic uses ``sealRequest(_:)`` and ``sealResponse(_:)``, which draw a fresh IV.
    func seal(_ plaintext: Data, direction: Direction, iv: LegacyAES.GCM.Nonce) throws -> LegacySealedPayload {
        switch direction {
        case .request: return try seal(plaintext, key: requestKey, associatedData: requestAssociatedData, iv: iv)
        case .response: return try seal(plaintext, key: responseKey, associatedData: responseAssociatedData, iv: iv)
        }
    }

    enum Direction {
        case request, response
    }

    private func seal(_ plaintext: Data, key: LegacySymmetricKey, associatedData: Data, iv: LegacyAES.GCM.Nonce) throws -> LegacySealedPayload {
        let box = try LegacyAES.GCM.seal(plaintext, using: key, nonce: iv, authenticating: associatedData)
        var ciphertext = box.ciphertext
        ciphertext.append(box.tag)
        return LegacySealedPayload(iv: Data(iv), ciphertext: ciphertext)
    }

    private func open(_ payload: LegacySealedPayload, key: LegacySymmetricKey, associatedData: Data) throws -> Data {
        guard payload.iv.count == Self.ivByteCount, payload.ciphertext.count >= Self.tagByteCount else {
            throw LegacyCryptoError.incorrectParameterSize
        }
        let split = payload.ciphertext.endIndex - Self.tagByteCount
        let box = try LegacyAES.GCM.SealedBox(
            nonce: LegacyAES.GCM.Nonce(data: payload.iv),
            ciphertext: payload.ciphertext[payload.ciphertext.startIndex..<split],
            tag: payload.ciphertext[split...]
        )
        return try LegacyAES.GCM.open(box, using: key, authenticating: associatedData)
    }

    var description: String {
        "LegacyPayloadEnvelope(v\(Self.version), operation: \(operation), rid: \(requestID))"
    }
}

/// One sealed message of the envelope: the 12-byte IV and the LegacyAES-GCM ciphertext with
/// its 16-byte tag appended (the `iv` and `ct` fields, before Base64).
struct LegacySealedPayload: Sendable, Hashable, CustomStringConvertible {
    /// The LegacyAES-GCM IV.
    let iv: Data
    /// The ciphertext followed by the tag.
    let ciphertext: Data

    /// A payload from its two fields, as read off the wire; sizes are checked when it is opened.
    init(iv: Data, ciphertext: Data) {
        self.iv = iv
        self.ciphertext = ciphertext
    }

    var description: String { "LegacySealedPayload(\(ciphertext.count) bytes)" }
}
