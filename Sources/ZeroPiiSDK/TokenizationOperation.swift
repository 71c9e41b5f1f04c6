/// The two operations of the protocol: their paths and their labels in the envelope's
/// associated data (Docs/Protocol.md, section 1).
enum TokenizationOperation: Sendable {
    case tokenize
    case batchTokenize

    var path: String {
        switch self {
        case .tokenize: return "ct-vault/api/v2/tokenize"
        case .batchTokenize: return "ct-vault/api/v2/tokenize/batch"
        }
    }

    var label: String {
        switch self {
        case .tokenize: return "tokenize"
        case .batchTokenize: return "tokenize/batch"
        }
    }
}
