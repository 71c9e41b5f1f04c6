import Foundation

#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif

// The wire bodies written and read with ``WireJSONWriter`` and ``WireJSONReader`` rather
// than Codable: they are on every request's path in the SDK and the mock server. Key order
// and form are Docs/Protocol.md's; reading follows the reader's strict rules. Package
// access, not public API: only the SDK and the mock server call these.

/// The single tokenize request's codec (section 3).
extension WireBodies.TokenizeRequest {
    private static let keys: [StaticString] = ["value"]

    /// The body as Docs/Protocol.md section 3 writes it: `{"value":"..."}`.
    package var wireJSON: Data {
        var writer = WireJSONWriter(capacity: value.utf8.count + 16)
        writer.raw(#"{"value":"#)
        writer.string(value)
        writer.raw("}")
        return Data(writer.bytes)
    }

    /// Reads a body strictly; throws ``WireJSONError`` for anything else.
    package init(wireJSON data: Data) throws {
        var value = ""
        try WireJSONReader.read(data) { reader in
            try reader.readObject(keys: Self.keys, required: 0b1) { reader, _ in value = try reader.readString() }
        }
        self.init(value: value)
    }
}

/// The batch tokenize request's codec (section 3).
extension WireBodies.BatchTokenizeRequest {
    private static let keys: [StaticString] = ["values"]

    /// `{"values":["...",...]}`.
    package var wireJSON: Data {
        var writer = WireJSONWriter(capacity: values.reduce(16) { $0 + $1.utf8.count + 3 })
        writer.raw(#"{"values":["#)
        for (index, value) in values.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(value)
        }
        writer.raw("]}")
        return Data(writer.bytes)
    }

    /// Reads a body strictly; throws ``WireJSONError`` for anything else.
    package init(wireJSON data: Data) throws {
        var values: [String] = []
        try WireJSONReader.read(data) { reader in
            try reader.readObject(keys: Self.keys, required: 0b1) { reader, _ in
                try reader.readArray { reader in values.append(try reader.readString()) }
            }
        }
        self.init(values: values)
    }
}

/// The single tokenize response's codec (section 3).
extension WireBodies.TokenizeResponse {
    private static let keys: [StaticString] = ["token", "exists", "newlyCreated", "dataType"]

    /// `{"token":"...","exists":...,"newlyCreated":...,"dataType":"..."}`; `dataType` left out when nil.
    package var wireJSON: Data {
        var writer = WireJSONWriter(capacity: token.utf8.count + 80)
        writer.raw(#"{"token":"#)
        writer.string(token)
        writer.raw(#","exists":"#)
        writer.bool(exists)
        writer.raw(#","newlyCreated":"#)
        writer.bool(newlyCreated)
        if let dataType {
            writer.raw(#","dataType":"#)
            writer.string(dataType)
        }
        writer.raw("}")
        return Data(writer.bytes)
    }

    /// Reads a body strictly; throws ``WireJSONError`` for anything else.
    package init(wireJSON data: Data) throws {
        self = try WireJSONReader.read(data) { reader in try Self(reading: &reader) }
    }

    init(reading reader: inout WireJSONReader) throws {
        var token = ""
        var exists = false
        var newlyCreated = false
        var dataType: String?
        try reader.readObject(keys: Self.keys, required: 0b0111) { reader, index in
            switch index {
            case 0: token = try reader.readString()
            case 1: exists = try reader.readBool()
            case 2: newlyCreated = try reader.readBool()
            default: dataType = try reader.readOptionalString()
            }
        }
        self.init(token: token, exists: exists, newlyCreated: newlyCreated, dataType: dataType)
    }
}

/// One batch result's reader and writer.
extension WireBodies.BatchTokenizeItem {
    private static let keys: [StaticString] = ["originalValue", "token", "exists", "newlyCreated", "dataType"]

    init(reading reader: inout WireJSONReader) throws {
        var originalValue = ""
        var token = ""
        var exists = false
        var newlyCreated = false
        var dataType: String?
        try reader.readObject(keys: Self.keys, required: 0b01111) { reader, index in
            switch index {
            case 0: originalValue = try reader.readString()
            case 1: token = try reader.readString()
            case 2: exists = try reader.readBool()
            case 3: newlyCreated = try reader.readBool()
            default: dataType = try reader.readOptionalString()
            }
        }
        self.init(originalValue: originalValue, token: token, exists: exists, newlyCreated: newlyCreated, dataType: dataType)
    }

    func write(to writer: inout WireJSONWriter) {
        writer.raw(#"{"originalValue":"#)
        writer.string(originalValue)
        writer.raw(#","token":"#)
        writer.string(token)
        writer.raw(#","exists":"#)
        writer.bool(exists)
        writer.raw(#","newlyCreated":"#)
        writer.bool(newlyCreated)
        if let dataType {
            writer.raw(#","dataType":"#)
            writer.string(dataType)
        }
        writer.raw("}")
    }
}

/// The batch summary's reader.
extension WireBodies.BatchTokenizeSummary {
    private static let keys: [StaticString] = ["processedCount", "existingCount", "newlyCreatedCount"]
    private static let range = Int64(Int.min)...Int64(Int.max)

    init(reading reader: inout WireJSONReader) throws {
        var counts = [0, 0, 0]
        try reader.readObject(keys: Self.keys, required: 0b111) { reader, index in
            counts[index] = Int(try reader.readInteger(in: Self.range))
        }
        self.init(processedCount: counts[0], existingCount: counts[1], newlyCreatedCount: counts[2])
    }
}

/// The batch tokenize response's codec (section 3).
extension WireBodies.BatchTokenizeResponse {
    private static let keys: [StaticString] = ["results", "summary"]

    /// `{"results":[...],"summary":{"processedCount":...,"existingCount":...,"newlyCreatedCount":...}}`.
    package var wireJSON: Data {
        var writer = WireJSONWriter(capacity: results.count * 128 + 96)
        writer.raw(#"{"results":["#)
        for (index, item) in results.enumerated() {
            if index > 0 { writer.raw(",") }
            item.write(to: &writer)
        }
        writer.raw(#"],"summary":{"processedCount":"#)
        writer.integer(Int64(summary.processedCount))
        writer.raw(#","existingCount":"#)
        writer.integer(Int64(summary.existingCount))
        writer.raw(#","newlyCreatedCount":"#)
        writer.integer(Int64(summary.newlyCreatedCount))
        writer.raw("}}")
        return Data(writer.bytes)
    }

    /// Reads a body strictly; throws ``WireJSONError`` for anything else.
    package init(wireJSON data: Data) throws {
        var results: [WireBodies.BatchTokenizeItem] = []
        var summary = WireBodies.BatchTokenizeSummary(processedCount: 0, existingCount: 0, newlyCreatedCount: 0)
        try WireJSONReader.read(data) { reader in
            try reader.readObject(keys: Self.keys, required: 0b11) { reader, index in
                if index == 0 {
                    try reader.readArray { reader in results.append(try WireBodies.BatchTokenizeItem(reading: &reader)) }
                } else {
                    summary = try WireBodies.BatchTokenizeSummary(reading: &reader)
                }
            }
        }
        self.init(results: results, summary: summary)
    }
}

/// The error body's codec (section 6).
extension WireBodies.ErrorResponse {
    private static let keys: [StaticString] = ["error"]
    private static let detailKeys: [StaticString] = ["code", "message"]

    /// `{"error":{"code":"...","message":"..."}}`.
    package var wireJSON: Data {
        var writer = WireJSONWriter(capacity: error.code.utf8.count + error.message.utf8.count + 40)
        writer.raw(#"{"error":{"code":"#)
        writer.string(error.code)
        writer.raw(#","message":"#)
        writer.string(error.message)
        writer.raw("}}")
        return Data(writer.bytes)
    }

    /// Reads a body strictly; throws ``WireJSONError`` for anything else.
    package init(wireJSON data: Data) throws {
        var code = ""
        var message = ""
        try WireJSONReader.read(data) { reader in
            try reader.readObject(keys: Self.keys, required: 0b1) { reader, _ in
                try reader.readObject(keys: Self.detailKeys, required: 0b11) { reader, index in
                    if index == 0 { code = try reader.readString() } else { message = try reader.readString() }
                }
            }
        }
        self.init(code: code, message: message)
    }
}
