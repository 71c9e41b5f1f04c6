import Foundation

/// The JSON bodies of the wire protocol (Docs/Protocol.md, sections 3, 5, 6 and 9).
///
/// Every decoder ignores fields it does not know, so a server can add fields without
/// breaking older clients. These types are plain data; they are never logged.
package enum WireBodies {
    /// `{"value": "..."}`: tokenize one value.
    package struct TokenizeRequest: Codable, Sendable, Equatable {
        /// The `value` field.
        package var value: String
        /// A body with these fields.
        package init(value: String) { self.value = value }
    }

    /// `{"token": ..., "exists": ..., "newlyCreated": ..., "dataType": ...}`.
    package struct TokenizeResponse: Codable, Sendable, Equatable {
        /// The `token` field.
        package var token: String
        /// The `exists` field.
        package var exists: Bool
        /// The `newlyCreated` field.
        package var newlyCreated: Bool
        /// The `dataType` field.
        package var dataType: String?
        /// A body with these fields.
        package init(token: String, exists: Bool, newlyCreated: Bool, dataType: String?) {
            self.token = token
            self.exists = exists
            self.newlyCreated = newlyCreated
            self.dataType = dataType
        }
    }

    /// `{"values": [...]}`: tokenize 1 to 1000 values.
    package struct BatchTokenizeRequest: Codable, Sendable, Equatable {
        /// The `values` field.
        package var values: [String]
        /// A body with these fields.
        package init(values: [String]) { self.values = values }
    }

    /// One entry of a batch response's `results`.
    package struct BatchTokenizeItem: Codable, Sendable, Equatable {
        /// The `originalValue` field.
        package var originalValue: String
        /// The `token` field.
        package var token: String
        /// The `exists` field.
        package var exists: Bool
        /// The `newlyCreated` field.
        package var newlyCreated: Bool
        /// The `dataType` field.
        package var dataType: String?
        /// A body with these fields.
        package init(originalValue: String, token: String, exists: Bool, newlyCreated: Bool, dataType: String?) {
            self.originalValue = originalValue
            self.token = token
            self.exists = exists
            self.newlyCreated = newlyCreated
            self.dataType = dataType
        }
    }

    /// A batch response's `summary`.
    package struct BatchTokenizeSummary: Codable, Sendable, Equatable {
        /// The `processedCount` field.
        package var processedCount: Int
        /// The `existingCount` field.
        package var existingCount: Int
        /// The `newlyCreatedCount` field.
        package var newlyCreatedCount: Int
        /// A body with these fields.
        package init(processedCount: Int, existingCount: Int, newlyCreatedCount: Int) {
            self.processedCount = processedCount
            self.existingCount = existingCount
            self.newlyCreatedCount = newlyCreatedCount
        }
    }

    /// `{"results": [...], "summary": {...}}`.
    package struct BatchTokenizeResponse: Codable, Sendable, Equatable {
        /// The `results` field.
        package var results: [BatchTokenizeItem]
        /// The `summary` field.
        package var summary: BatchTokenizeSummary
        /// A body with these fields.
        package init(results: [BatchTokenizeItem], summary: BatchTokenizeSummary) {
            self.results = results
            self.summary = summary
        }
    }

    /// The encrypted request envelope (section 5): `{"v":1,"rid":...,"ts":...,"salt":...,"iv":...,"ct":...}`.
    /// `salt`, `iv` and `ct` are standard Base64 with padding.
    package struct EnvelopeRequest: Codable, Sendable, Equatable {
        /// The `v` field.
        package var v: Int
        /// The `rid` field.
        package var rid: String
        /// The `ts` field.
        package var ts: Int64
        /// The `salt` field.
        package var salt: String
        /// The `iv` field.
        package var iv: String
        /// The `ct` field.
        package var ct: String
        /// A body with these fields.
        package init(v: Int, rid: String, ts: Int64, salt: String, iv: String, ct: String) {
            self.v = v
            self.rid = rid
            self.ts = ts
            self.salt = salt
            self.iv = iv
            self.ct = ct
        }
    }

    /// The encrypted response envelope: `{"v":1,"rid":...,"iv":...,"ct":...}`.
    package struct EnvelopeResponse: Codable, Sendable, Equatable {
        /// The `v` field.
        package var v: Int
        /// The `rid` field.
        package var rid: String
        /// The `iv` field.
        package var iv: String
        /// The `ct` field.
        package var ct: String
        /// A body with these fields.
        package init(v: Int, rid: String, iv: String, ct: String) {
            self.v = v
            self.rid = rid
            self.iv = iv
            self.ct = ct
        }
    }

    /// The CleverTap-compatible request envelope (section 9), sent with `Encrypted: true`:
    /// `{"itp":...,"itk":...,"itv":...}`, each standard Base64 with padding.
    package struct CleverTapEnvelopeRequest: Codable, Sendable, Equatable {
        /// The `itp` field: the AES-256-GCM ciphertext followed by its 16-byte tag.
        package var itp: String
        /// The `itk` field: the 32-byte AES key the request and its response are sealed with.
        package var itk: String
        /// The `itv` field: the request's 12-byte IV.
        package var itv: String
        /// A body with these fields.
        package init(itp: String, itk: String, itv: String) {
            self.itp = itp
            self.itk = itk
            self.itv = itv
        }
    }

    /// The CleverTap-compatible response envelope (section 9): `{"itp":...,"itv":...}`,
    /// sealed with the request's key.
    package struct CleverTapEnvelopeResponse: Codable, Sendable, Equatable {
        /// The `itp` field: the AES-256-GCM ciphertext followed by its 16-byte tag.
        package var itp: String
        /// The `itv` field: the response's 12-byte IV.
        package var itv: String
        /// A body with these fields.
        package init(itp: String, itv: String) {
            self.itp = itp
            self.itv = itv
        }
    }

    /// `{"error": {"code": "...", "message": "..."}}`, the body of every non-2xx answer.
    package struct ErrorResponse: Codable, Sendable, Equatable {
        /// The `error` object: a machine-readable code and a human-readable message.
        package struct Detail: Codable, Sendable, Equatable {
            /// The `code` field.
            package var code: String
            /// The `message` field.
            package var message: String
            /// A body with these fields.
            package init(code: String, message: String) {
                self.code = code
                self.message = message
            }
        }

        /// The `error` field.
        package var error: Detail
        /// A body with these fields.
        package init(code: String, message: String) {
            error = Detail(code: code, message: message)
        }
    }
}
