import Foundation

#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif

// The envelope bodies of Docs/Protocol.md sections 5 and 9, written and read with
// ``WireJSONWriter`` and ``WireJSONReader`` like the plain bodies. The writers take the
// binary fields as bytes and Base64 them straight into the JSON (the CleverTap request's
// key from its own storage); the readers keep the fields as the Base64 text they are on
// the wire, and ``WireBase64/decode(_:)-(String)`` turns one into bytes, or nil when it is
// not canonical Base64, so that a body that is not an envelope (a JSON error) is told
// from an envelope with a bad field.

/// The v1 request envelope's codec (section 5).
extension WireBodies.EnvelopeRequest {
    private static let keys: [StaticString] = ["v", "rid", "ts", "salt", "iv", "ct"]

    /// `{"v":1,"rid":"...","ts":...,"salt":"...","iv":"...","ct":"..."}`, in section 5's key order.
    package static func wireJSON(version: Int, requestID: String, timestamp: Int64, salt: Data, iv: Data, ciphertext: Data) -> Data {
        let base64 =
            WireBase64.encodedCount(of: salt.count) + WireBase64.encodedCount(of: iv.count) + WireBase64.encodedCount(of: ciphertext.count)
        var writer = WireJSONWriter(capacity: base64 + requestID.utf8.count + 64)
        writer.raw(#"{"v":"#)
        writer.integer(Int64(version))
        writer.raw(#","rid":"#)
        writer.string(requestID)
        writer.raw(#","ts":"#)
        writer.integer(timestamp)
        writer.raw(#","salt":"#)
        writer.base64(salt)
        writer.raw(#","iv":"#)
        writer.base64(iv)
        writer.raw(#","ct":"#)
        writer.base64(ciphertext)
        writer.raw("}")
        return Data(writer.bytes)
    }

    /// Reads a body strictly; throws ``WireJSONError`` when it is not this envelope.
    package init(wireJSON data: Data) throws {
        var version = 0
        var timestamp: Int64 = 0
        var texts = ["", "", "", ""]
        try WireJSONReader.read(data) { reader in
            try reader.readObject(keys: Self.keys, required: 0b111111) { reader, index in
                switch index {
                case 0: version = Int(try reader.readInteger(in: Int64(Int.min)...Int64(Int.max)))
                case 2: timestamp = try reader.readInteger(in: Int64.min...Int64.max)
                default: texts[index == 1 ? 0 : index - 2] = try reader.readString()
                }
            }
        }
        self.init(v: version, rid: texts[0], ts: timestamp, salt: texts[1], iv: texts[2], ct: texts[3])
    }
}

/// The v1 response envelope's codec (section 5).
extension WireBodies.EnvelopeResponse {
    private static let keys: [StaticString] = ["v", "rid", "iv", "ct"]

    /// `{"v":1,"rid":"...","iv":"...","ct":"..."}`, in section 5's key order.
    package static func wireJSON(version: Int, requestID: String, iv: Data, ciphertext: Data) -> Data {
        var writer = WireJSONWriter(
            capacity: WireBase64.encodedCount(of: iv.count) + WireBase64.encodedCount(of: ciphertext.count) + requestID.utf8.count + 40)
        writer.raw(#"{"v":"#)
        writer.integer(Int64(version))
        writer.raw(#","rid":"#)
        writer.string(requestID)
        writer.raw(#","iv":"#)
        writer.base64(iv)
        writer.raw(#","ct":"#)
        writer.base64(ciphertext)
        writer.raw("}")
        return Data(writer.bytes)
    }

    /// Reads a body strictly; throws ``WireJSONError`` for anything else.
    package init(wireJSON data: Data) throws {
        var version = 0
        var texts = ["", "", ""]
        try WireJSONReader.read(data) { reader in
            try reader.readObject(keys: Self.keys, required: 0b1111) { reader, index in
                if index == 0 {
                    version = Int(try reader.readInteger(in: Int64(Int.min)...Int64(Int.max)))
                } else {
                    texts[index - 1] = try reader.readString()
                }
            }
        }
        self.init(v: version, rid: texts[0], iv: texts[1], ct: texts[2])
    }
}

/// The CleverTap-compatible request envelope's codec (section 9).
extension WireBodies.CleverTapEnvelopeRequest {
    private static let keys: [StaticString] = ["itp", "itk", "itv"]

    /// `{"itp":"...","itk":"...","itv":"..."}` (ciphertext and tag, key, IV), in section
    /// 9's key order. `key` is read in place (it is the AES key).
    package static func wireJSON<Key: ContiguousBytes>(ciphertext: Data, tag: Data, key: Key, iv: Data) -> Data {
        var writer = WireJSONWriter(capacity: WireBase64.encodedCount(of: ciphertext.count + tag.count) + 96)
        writer.raw(#"{"itp":"#)
        writer.base64(ciphertext + tag)
        writer.raw(#","itk":"#)
        writer.base64(key)
        writer.raw(#","itv":"#)
        writer.base64(iv)
        writer.raw("}")
        return Data(writer.bytes)
    }

    /// Reads a body strictly; throws ``WireJSONError`` for anything else.
    package init(wireJSON data: Data) throws {
        var texts = ["", "", ""]
        try WireJSONReader.read(data) { reader in
            try reader.readObject(keys: Self.keys, required: 0b111) { reader, index in texts[index] = try reader.readString() }
        }
        self.init(itp: texts[0], itk: texts[1], itv: texts[2])
    }
}

/// The CleverTap-compatible response envelope's codec (section 9).
extension WireBodies.CleverTapEnvelopeResponse {
    private static let keys: [StaticString] = ["itp", "itv"]

    /// `{"itp":"...","itv":"..."}` (ciphertext and tag, IV), in section 9's key order.
    package static func wireJSON(sealed: Data, iv: Data) -> Data {
        var writer = WireJSONWriter(capacity: WireBase64.encodedCount(of: sealed.count) + 40)
        writer.raw(#"{"itp":"#)
        writer.base64(sealed)
        writer.raw(#","itv":"#)
        writer.base64(iv)
        writer.raw("}")
        return Data(writer.bytes)
    }

    /// Reads a body strictly; throws ``WireJSONError`` for anything else.
    package init(wireJSON data: Data) throws {
        var texts = ["", ""]
        try WireJSONReader.read(data) { reader in
            try reader.readObject(keys: Self.keys, required: 0b11) { reader, index in texts[index] = try reader.readString() }
        }
        self.init(itp: texts[0], itv: texts[1])
    }
}
