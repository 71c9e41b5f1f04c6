import Foundation

/// The cryptographic core of the ZeroPii v1 payload envelope (Docs/Protocol.md, section 5),
/// on bytes: key derivation, associated data, and sealing and opening in both
/// directions. The SDK and the mock server both use this one type, so the two sides
/// cannot drift apart. The JSON form of the envelope lives in ZeroPiiModels.
///
/// One value describes one request: its access token, operation, request id, timestamp
/// and salt. From those it derives
/// `K_req = HKDF-SHA256(token, salt, "zeropii/v1 request", 32)` and
/// `K_resp = HKDF-SHA256(token, salt, "zeropii/v1 response", 32)`, and binds every
/// message to the operation and request id through the associated data.
///
/// The description shows the operation and request id only; never the token, the keys
/// or any payload.
package struct PayloadEnvelope: Sendable, CustomStringConvertible {
    /// The envelope version this type implements (`"v": 1` on the wire).
    package static let version = 1
    /// The value of the `X-ZeroPii-Encryption` header for this version.
    package static let headerValue = "v1"
    /// The size of the per-request HKDF salt.
    package static let saltByteCount = 32
    /// The size of every AES-GCM IV in the envelope.
    package static let ivByteCount = 12
    /// The size of the AES-GCM tag that ends every ciphertext.
    package static let tagByteCount = 16

    /// The operation label (`tokenize` or `tokenize/batch`) bound into the associated data.
    package let operation: String
    /// The request id (`rid`), a lowercase UUID.
    package let requestID: String
    /// The request's Unix time in whole seconds (`ts`).
    package let timestamp: Int64
    /// The per-request HKDF salt.
    package let salt: Data

    /// `K_req` then `K_resp`, 32 bytes each, in memory wiped when the last copy of
    /// the envelope goes away.
    private let keys: SecureBytes
    /// `K_req` expanded, once, when the envelope is made: both sides use it (the client
    /// seals the request, the server opens it), and a second message in that direction
    /// (a request sealed and opened again) reuses it. `K_resp` is expanded per message.
    private let requestEngine: GCMEngine
    /// The request's associated data, built once: the client seals with it and the
    /// server opens with it.
    private let requestAAD: [UInt8]

    private static let keyByteCount = 32
    private static let requestInfo = Array("zeropii/v1 request".utf8)
    private static let responseInfo = Array("zeropii/v1 response".utf8)

    /// An envelope for a new request, with a fresh salt from the system's secure
    /// random generator (through `PublicRandomPool` on Linux: the salt goes on the
    /// wire). This is the client's starting point.
    package init(accessToken: String, operation: String, requestID: String, timestamp: Int64) {
        // A 32-byte salt is always the right size, so this cannot throw.
        try! self.init(
            accessToken: accessToken, operation: operation, requestID: requestID, timestamp: timestamp,
            salt: SecureRandom.publicBytes(count: Self.saltByteCount)
        )
    }

    /// An envelope for a request whose salt is already known: the server reading a
    /// request, or a test with fixed inputs.
    /// - Throws: ``CryptoError/incorrectParameterSize`` unless `salt` is 32 bytes.
    package init(accessToken: String, operation: String, requestID: String, timestamp: Int64, salt: Data) throws {
        guard salt.count == Self.saltByteCount else { throw CryptoError.incorrectParameterSize }
        self.operation = operation
        self.requestID = requestID
        self.timestamp = timestamp
        self.salt = salt
        requestAAD = Self.associatedData("zeropii/v1|request|", operation, requestID, timestamp: timestamp)
        // Both keys come from one extract step and one HMAC keyed with the pseudorandom
        // key; only the expand step's info differs. The token's UTF-8 bytes are read in
        // place: no copy of the token is made unless the string is not contiguous.
        let derived = SecureBytes(count: 2 * Self.keyByteCount) { output in
            salt.withUnsafeBytes { saltBytes in
                Self.requestInfo.withUnsafeBytes { requestInfo in
                    Self.responseInfo.withUnsafeBytes { responseInfo in
                        Self.withUTF8(of: accessToken) { token in
                            HKDF<SHA256>.deriveKeyPair(
                                inputKeyMaterial: token, salt: saltBytes, firstInfo: requestInfo, secondInfo: responseInfo,
                                into: output
                            )
                        }
                    }
                }
            }
        }
        keys = derived
        // A 32-byte key is always a valid AES key, so this cannot throw.
        requestEngine = try! derived.withUnsafeBytes { try GCMEngine(key: UnsafeRawBufferPointer(rebasing: $0[0..<Self.keyByteCount])) }
    }

    /// Calls `body` with the UTF-8 bytes of `string`: its own storage when it has
    /// contiguous UTF-8 (native Swift strings), else a copy that is wiped afterwards.
    private static func withUTF8(of string: String, _ body: (UnsafeRawBufferPointer) -> Void) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { body(UnsafeRawBufferPointer($0)) }
        guard done == nil else { return }
        var copy = Array(string.utf8)
        copy.withUnsafeBytes { body($0) }
        copy.withUnsafeMutableBytes { Wipe.bytes($0, .accessTokenCopy) }
    }

    /// `prefix + OP + "|" + rid`, followed by `"|" + ts` when a timestamp is given.
    private static func associatedData(_ prefix: StaticString, _ operation: String, _ requestID: String, timestamp: Int64?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prefix.utf8CodeUnitCount + operation.utf8.count + requestID.utf8.count + 22)
        bytes.append(contentsOf: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
        bytes.append(contentsOf: operation.utf8)
        bytes.append(UInt8(ascii: "|"))
        bytes.append(contentsOf: requestID.utf8)
        if let timestamp {
            bytes.append(UInt8(ascii: "|"))
            bytes.append(contentsOf: String(timestamp).utf8)
        }
        return bytes
    }

    /// `"zeropii/v1|request|" + OP + "|" + rid + "|" + ts`.
    package var requestAssociatedData: Data {
        Data(requestAAD)
    }

    /// `"zeropii/v1|response|" + OP + "|" + rid`.
    package var responseAssociatedData: Data {
        Data(Self.associatedData("zeropii/v1|response|", operation, requestID, timestamp: nil))
    }

    /// Client: seals the plain request body under `K_req` with a fresh random IV.
    package func sealRequest(_ plaintext: Data) throws -> SealedPayload {
        try seal(plaintext, direction: .request, iv: SecureRandom.publicBytes(count: Self.ivByteCount))
    }

    /// Server: opens a request body.
    /// - Throws: ``CryptoError/authenticationFailure`` when it was not sealed for this
    ///   token, salt, operation, request id and timestamp (the server's 419);
    ///   ``CryptoError/incorrectParameterSize`` for a malformed IV or ciphertext.
    package func openRequest(_ payload: SealedPayload) throws -> Data {
        try open(payload, direction: .request)
    }

    /// Server: seals the plain response body under `K_resp` with a fresh random IV.
    package func sealResponse(_ plaintext: Data) throws -> SealedPayload {
        try seal(plaintext, direction: .response, iv: SecureRandom.publicBytes(count: Self.ivByteCount))
    }

    /// Client: opens a response body. Nothing of a payload that fails is returned.
    /// - Throws: ``CryptoError/authenticationFailure`` when it was not sealed for this
    ///   request; ``CryptoError/incorrectParameterSize`` for a malformed IV or ciphertext.
    package func openResponse(_ payload: SealedPayload) throws -> Data {
        try open(payload, direction: .response)
    }

    /// Seals with a caller-chosen IV, for known-answer tests of the wire format. Real
    /// traffic uses ``sealRequest(_:)`` and ``sealResponse(_:)``, which draw a fresh IV.
    func seal(_ plaintext: Data, direction: Direction, iv: AES.GCM.Nonce) throws -> SealedPayload {
        try seal(plaintext, direction: direction, iv: iv.bytes)
    }

    enum Direction {
        case request, response
    }

    /// Calls `body` with the engine (the expanded key) and associated data of one direction.
    private func withEngineAndAssociatedData<Result>(
        _ direction: Direction, _ body: (GCMEngine, UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        switch direction {
        case .request:
            let engine = requestEngine
            return try requestAAD.withUnsafeBytes { try body(engine, $0) }
        case .response:
            // A 32-byte key is always a valid AES key, so this cannot throw.
            let engine = keys.withUnsafeBytes { try! GCMEngine(key: UnsafeRawBufferPointer(rebasing: $0[Self.keyByteCount...])) }
            let aad = Self.associatedData("zeropii/v1|response|", operation, requestID, timestamp: nil)
            return try aad.withUnsafeBytes { try body(engine, $0) }
        }
    }

    /// Encrypts straight into the wire form, the ciphertext followed by the tag, in
    /// one buffer.
    private func seal(_ plaintext: Data, direction: Direction, iv: Data) throws -> SealedPayload {
        guard iv.count == Self.ivByteCount else { throw CryptoError.incorrectParameterSize }
        var ciphertext = Data(count: plaintext.count + Self.tagByteCount)
        try withEngineAndAssociatedData(direction) { engine, associatedData in
            try plaintext.withUnsafeBytes { text in
                try iv.withUnsafeBytes { nonce in
                    try ciphertext.withUnsafeMutableBytes { output in
                        try engine.seal(
                            nonce: nonce, text: text, associatedData: associatedData, output: output.baseAddress,
                            tag: output.baseAddress! + text.count
                        )
                    }
                }
            }
        }
        return SealedPayload(iv: iv, ciphertext: ciphertext)
    }

    /// Checks and decrypts straight from the wire form, without splitting it into copies.
    private func open(_ payload: SealedPayload, direction: Direction) throws -> Data {
        guard payload.iv.count == Self.ivByteCount, payload.ciphertext.count >= Self.tagByteCount else {
            throw CryptoError.incorrectParameterSize
        }
        let textCount = payload.ciphertext.count - Self.tagByteCount
        var plaintext = Data(count: textCount)
        try withEngineAndAssociatedData(direction) { engine, associatedData in
            try payload.ciphertext.withUnsafeBytes { sealed in
                try payload.iv.withUnsafeBytes { nonce in
                    try plaintext.withUnsafeMutableBytes { output in
                        try engine.open(
                            nonce: nonce, ciphertext: UnsafeRawBufferPointer(rebasing: sealed[0..<textCount]),
                            associatedData: associatedData, tag: UnsafeRawBufferPointer(rebasing: sealed[textCount...]),
                            output: output.baseAddress
                        )
                    }
                }
            }
        }
        return plaintext
    }

    package var description: String {
        "PayloadEnvelope(v\(Self.version), operation: \(operation), rid: \(requestID))"
    }
}

/// One sealed message of the envelope: the 12-byte IV and the AES-GCM ciphertext with
/// its 16-byte tag appended (the `iv` and `ct` fields, before Base64).
package struct SealedPayload: Sendable, Hashable, CustomStringConvertible {
    /// The AES-GCM IV.
    package let iv: Data
    /// The ciphertext followed by the tag.
    package let ciphertext: Data

    /// A payload from its two fields, as read off the wire; sizes are checked when it is opened.
    package init(iv: Data, ciphertext: Data) {
        self.iv = iv
        self.ciphertext = ciphertext
    }

    package var description: String { "SealedPayload(\(ciphertext.count) bytes)" }
}
