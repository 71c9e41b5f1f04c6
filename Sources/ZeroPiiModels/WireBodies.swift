import Foundation

/// The JSON bodies of the wire protocol (PROTOCOL.md, sections 3, 5 and 6).
///
/// Every decoder ignores fields it does not know, so a server can add fields without
/// breaking older clients. These types are plain data; they are never logged.
public enum WireBodies {
    /// `{"value": "..."}`: tokenize one value.
    public struct TokenizeRequest: Codable, Sendable, Equatable {
        public var value: String
        public init(value: String) { self.value = value }
    }

    /// `{"token": ..., "exists": ..., "newlyCreated": ..., "dataType": ...}`.
    public struct TokenizeResponse: Codable, Sendable, Equatable {
        public var token: String
        public var exists: Bool
        public var newlyCreated: Bool
        public var dataType: String?
        public init(token: String, exists: Bool, newlyCreated: Bool, dataType: String?) {
            self.token = token
            self.exists = exists
            self.newlyCreated = newlyCreated
            self.dataType = dataType
        }
    }

    /// `{"values": [...]}`: tokenize 1 to 1000 values.
    public struct BatchTokenizeRequest: Codable, Sendable, Equatable {
        public var values: [String]
        public init(values: [String]) { self.values = values }
    }

    /// One entry of a batch response's `results`.
    public struct BatchTokenizeItem: Codable, Sendable, Equatable {
        public var originalValue: String
        public var token: String
        public var exists: Bool
        public var newlyCreated: Bool
        public var dataType: String?
        public init(originalValue: String, token: String, exists: Bool, newlyCreated: Bool, dataType: String?) {
            self.originalValue = originalValue
            self.token = token
            self.exists = exists
            self.newlyCreated = newlyCreated
            self.dataType = dataType
        }
    }

    /// A batch response's `summary`.
    public struct BatchTokenizeSummary: Codable, Sendable, Equatable {
        public var processedCount: Int
        public var existingCount: Int
        public var newlyCreatedCount: Int
        public init(processedCount: Int, existingCount: Int, newlyCreatedCount: Int) {
            self.processedCount = processedCount
            self.existingCount = existingCount
            self.newlyCreatedCount = newlyCreatedCount
        }
    }

    /// `{"results": [...], "summary": {...}}`.
    public struct BatchTokenizeResponse: Codable, Sendable, Equatable {
        public var results: [BatchTokenizeItem]
        public var summary: BatchTokenizeSummary
        public init(results: [BatchTokenizeItem], summary: BatchTokenizeSummary) {
            self.results = results
            self.summary = summary
        }
    }

    /// The encrypted request envelope (section 5): `{"v":1,"rid":...,"ts":...,"salt":...,"iv":...,"ct":...}`.
    /// `salt`, `iv` and `ct` are standard Base64 with padding.
    public struct EnvelopeRequest: Codable, Sendable, Equatable {
        public var v: Int
        public var rid: String
        public var ts: Int64
        public var salt: String
        public var iv: String
        public var ct: String
        public init(v: Int, rid: String, ts: Int64, salt: String, iv: String, ct: String) {
            self.v = v
            self.rid = rid
            self.ts = ts
            self.salt = salt
            self.iv = iv
            self.ct = ct
        }
    }

    /// The encrypted response envelope: `{"v":1,"rid":...,"iv":...,"ct":...}`.
    public struct EnvelopeResponse: Codable, Sendable, Equatable {
        public var v: Int
        public var rid: String
        public var iv: String
        public var ct: String
        public init(v: Int, rid: String, iv: String, ct: String) {
            self.v = v
            self.rid = rid
            self.iv = iv
            self.ct = ct
        }
    }

    /// `{"error": {"code": "...", "message": "..."}}`, the body of every non-2xx answer.
    public struct ErrorResponse: Codable, Sendable, Equatable {
        public struct Detail: Codable, Sendable, Equatable {
            public var code: String
            public var message: String
            public init(code: String, message: String) {
                self.code = code
                self.message = message
            }
        }

        public var error: Detail
        public init(code: String, message: String) {
            error = Detail(code: code, message: message)
        }
    }
}
