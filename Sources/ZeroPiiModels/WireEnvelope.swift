import Foundation

/// The envelope bodies of Docs/Protocol.md sections 5 and 9 with their Base64 fields as bytes,
/// written and read in one pass over the JSON, without an intermediate Base64 `String`,
/// since they are on every request's path. Package access, for the SDK and the mock
/// server; ``WireBodies`` holds the same bodies as plain data with string fields.
///
/// When reading, a Base64 field that is a JSON string but not canonical Base64 reads as
/// nil rather than failing the whole body, so that callers can tell "not an envelope"
/// from "an envelope with a bad field" as the protocol's answers do.
package enum WireEnvelope {
    /// `{"v":1,"rid":"...","ts":...,"salt":"...","iv":"...","ct":"..."}`.
    package struct V1Request: Sendable {
        private static let keys: [StaticString] = ["v", "rid", "ts", "salt", "iv", "ct"]

        package let version: Int64
        package let requestID: String
        package let timestamp: Int64
        package let salt: Data?
        package let iv: Data?
        package let ciphertext: Data?

        /// The body, in section 5's key order.
        package static func wireJSON(version: Int, requestID: String, timestamp: Int64, salt: Data, iv: Data, ciphertext: Data) -> Data {
            let base64 =
                WireBase64.encodedCount(of: salt.count) + WireBase64.encodedCount(of: iv.count)
                + WireBase64.encodedCount(of: ciphertext.count)
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
            var version: Int64 = 0
            var requestID = ""
            var timestamp: Int64 = 0
            var fields: [Data?] = [nil, nil, nil]
            try WireJSONReader.read(data) { reader in
                try reader.readObject(keys: Self.keys, required: 0b111111) { reader, index in
                    switch index {
                    case 0: version = try reader.readInteger(in: Int64(Int.min)...Int64(Int.max))
                    case 1: requestID = try reader.readString()
                    case 2: timestamp = try reader.readInteger(in: Int64.min...Int64.max)
                    default: fields[index - 3] = try reader.readBase64()
                    }
                }
            }
            self.version = version
            self.requestID = requestID
            self.timestamp = timestamp
            (salt, iv, ciphertext) = (fields[0], fields[1], fields[2])
        }
    }

    /// `{"v":1,"rid":"...","iv":"...","ct":"..."}`.
    package struct V1Response: Sendable {
        private static let keys: [StaticString] = ["v", "rid", "iv", "ct"]

        package let version: Int64
        package let requestID: String
        package let iv: Data?
        package let ciphertext: Data?

        /// The body, in section 5's key order.
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

        package init(wireJSON data: Data) throws {
            var version: Int64 = 0
            var requestID = ""
            var fields: [Data?] = [nil, nil]
            try WireJSONReader.read(data) { reader in
                try reader.readObject(keys: Self.keys, required: 0b1111) { reader, index in
                    switch index {
                    case 0: version = try reader.readInteger(in: Int64(Int.min)...Int64(Int.max))
                    case 1: requestID = try reader.readString()
                    default: fields[index - 2] = try reader.readBase64()
                    }
                }
            }
            self.version = version
            self.requestID = requestID
            (iv, ciphertext) = (fields[0], fields[1])
        }
    }

    /// `{"itp":"...","itk":"...","itv":"..."}`: ciphertext and tag, key, IV.
    package struct CleverTapRequest: Sendable {
        private static let keys: [StaticString] = ["itp", "itk", "itv"]

        package let sealed: Data?
        package let key: Data?
        package let iv: Data?

        /// The body, in section 9's key order. `key` is read in place (it is the AES key).
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

        package init(wireJSON data: Data) throws {
            var fields: [Data?] = [nil, nil, nil]
            try WireJSONReader.read(data) { reader in
                try reader.readObject(keys: Self.keys, required: 0b111) { reader, index in fields[index] = try reader.readBase64() }
            }
            (sealed, key, iv) = (fields[0], fields[1], fields[2])
        }
    }

    /// `{"itp":"...","itv":"..."}`: ciphertext and tag, IV.
    package struct CleverTapResponse: Sendable {
        private static let keys: [StaticString] = ["itp", "itv"]

        package let sealed: Data?
        package let iv: Data?

        /// The body, in section 9's key order.
        package static func wireJSON(sealed: Data, iv: Data) -> Data {
            var writer = WireJSONWriter(capacity: WireBase64.encodedCount(of: sealed.count) + 40)
            writer.raw(#"{"itp":"#)
            writer.base64(sealed)
            writer.raw(#","itv":"#)
            writer.base64(iv)
            writer.raw("}")
            return Data(writer.bytes)
        }

        package init(wireJSON data: Data) throws {
            var fields: [Data?] = [nil, nil]
            try WireJSONReader.read(data) { reader in
                try reader.readObject(keys: Self.keys, required: 0b11) { reader, index in fields[index] = try reader.readBase64() }
            }
            (sealed, iv) = (fields[0], fields[1])
        }
    }
}
