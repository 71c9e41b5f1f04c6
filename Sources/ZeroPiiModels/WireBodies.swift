import Foundation

/// The JSON bodies of the wire protocol (PROTOCOL.md, sections 3, 5, 6 and 9).
///
/// Every decoder ignores fields it does not know, so a server can add fields without
/// breaking older clients. These types are plain data; they are never logged.
public enum WireBodies {
    /// `{"value": "..."}`: tokenize one value.
    public struct TokenizeRequest: Codable, Sendable, Equatable {
        /// The `value` field.
        public var value: String
        /// A body with these fields.
        public init(value: String) { self.value = value }
    }

    /// `{"token": ..., "exists": ..., "newlyCreated": ..., "dataType": ...}`.
    public struct TokenizeResponse: Codable, Sendable, Equatable {
        /// The `token` field.
        public var token: String
        /// The `exists` field.
        public var exists: Bool
        /// The `newlyCreated` field.
        public var newlyCreated: Bool
        /// The `dataType` field.
        public var dataType: String?
        /// A body with these fields.
        public init(token: String, exists: Bool, newlyCreated: Bool, dataType: String?) {
            self.token = token
            self.exists = exists
            self.newlyCreated = newlyCreated
            self.dataType = dataType
        }
    }

    /// `{"values": [...]}`: tokenize 1 to 1000 values.
    public struct BatchTokenizeRequest: Codable, Sendable, Equatable {
        /// The `values` field.
        public var values: [String]
        /// A body with these fields.
        public init(values: [String]) { self.values = values }
    }

    /// One entry of a batch response's `results`.
    public struct BatchTokenizeItem: Codable, Sendable, Equatable {
        /// The `originalValue` field.
        public var originalValue: String
        /// The `token` field.
        public var token: String
        /// The `exists` field.
        public var exists: Bool
        /// The `newlyCreated` field.
        public var newlyCreated: Bool
        /// The `dataType` field.
        public var dataType: String?
        /// A body with these fields.
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
        /// The `processedCount` field.
        public var processedCount: Int
        /// The `existingCount` field.
        public var existingCount: Int
        /// The `newlyCreatedCount` field.
        public var newlyCreatedCount: Int
        /// A body with these fields.
        public init(processedCount: Int, existingCount: Int, newlyCreatedCount: Int) {
            self.processedCount = processedCount
            self.existingCount = existingCount
            self.newlyCreatedCount = newlyCreatedCount
        }
    }

    /// `{"results": [...], "summary": {...}}`.
    public struct BatchTokenizeResponse: Codable, Sendable, Equatable {
        /// The `results` field.
        public var results: [BatchTokenizeItem]
        /// The `summary` field.
        public var summary: BatchTokenizeSummary
        /// A body with these fields.
        public init(results: [BatchTokenizeItem], summary: BatchTokenizeSummary) {
            self.results = results
            self.summary = summary
        }
    }

    /// The encrypted request envelope (section 5): `{"v":1,"rid":...,"ts":...,"salt":...,"iv":...,"ct":...}`.
    /// `salt`, `iv` and `ct` are standard Base64 with padding.
    public struct EnvelopeRequest: Codable, Sendable, Equatable {
        /// The `v` field.
        public var v: Int
        /// The `rid` field.
        public var rid: String
        /// The `ts` field.
        public var ts: Int64
        /// The `salt` field.
        public var salt: String
        /// The `iv` field.
        public var iv: String
        /// The `ct` field.
        public var ct: String
        /// A body with these fields.
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
        /// The `v` field.
        public var v: Int
        /// The `rid` field.
        public var rid: String
        /// The `iv` field.
        public var iv: String
        /// The `ct` field.
        public var ct: String
        /// A body with these fields.
        public init(v: Int, rid: String, iv: String, ct: String) {
            self.v = v
            self.rid = rid
            self.iv = iv
            self.ct = ct
        }
    }

    /// The CleverTap-compatible request envelope (section 9), sent with `Encrypted: true`:
    /// `{"itp":...,"itk":...,"itv":...}`, each standard Base64 with padding.
    public struct CleverTapEnvelopeRequest: Codable, Sendable, Equatable {
        /// The `itp` field: the AES-256-GCM ciphertext followed by its 16-byte tag.
        public var itp: String
        /// The `itk` field: the 32-byte AES key the request and its response are sealed with.
        public var itk: String
        /// The `itv` field: the request's 12-byte IV.
        public var itv: String
        /// A body with these fields.
        public init(itp: String, itk: String, itv: String) {
            self.itp = itp
            self.itk = itk
            self.itv = itv
        }
    }

    /// The CleverTap-compatible response envelope (section 9): `{"itp":...,"itv":...}`,
    /// sealed with the request's key.
    public struct CleverTapEnvelopeResponse: Codable, Sendable, Equatable {
        /// The `itp` field: the AES-256-GCM ciphertext followed by its 16-byte tag.
        public var itp: String
        /// The `itv` field: the response's 12-byte IV.
        public var itv: String
        /// A body with these fields.
        public init(itp: String, itv: String) {
            self.itp = itp
            self.itv = itv
        }
    }

    /// `{"error": {"code": "...", "message": "..."}}`, the body of every non-2xx answer.
    public struct ErrorResponse: Codable, Sendable, Equatable {
        /// The `error` object: a machine-readable code and a human-readable message.
        public struct Detail: Codable, Sendable, Equatable {
            /// The `code` field.
            public var code: String
            /// The `message` field.
            public var message: String
            /// A body with these fields.
            public init(code: String, message: String) {
                self.code = code
                self.message = message
            }
        }

        /// The `error` field.
        public var error: Detail
        /// A body with these fields.
        public init(code: String, message: String) {
            error = Detail(code: code, message: message)
        }
    }
}
