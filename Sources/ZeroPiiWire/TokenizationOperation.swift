/// The two operations of the protocol: their paths and their labels, which the v1
/// envelope binds into its associated data (Docs/Protocol.md, section 1).
package enum TokenizationOperation: Sendable, CaseIterable {
    /// `POST ct-vault/api/v2/tokenize`: one value.
    case tokenize
    /// `POST ct-vault/api/v2/tokenize/batch`: 1 to 1000 values.
    case batchTokenize

    /// The path under the service's base URL, without a leading slash.
    package var path: String {
        switch self {
        case .tokenize: return "ct-vault/api/v2/tokenize"
        case .batchTokenize: return "ct-vault/api/v2/tokenize/batch"
        }
    }

    /// The label bound into the v1 envelope's associated data, and used in log lines.
    package var label: String {
        switch self {
        case .tokenize: return "tokenize"
        case .batchTokenize: return "tokenize/batch"
        }
    }
}
