import ZeroPiiSDK

/// The API refused the run's setup rather than its values: the access token may not
/// tokenize (403), the server could not decrypt the request (419), or it does not take
/// the wire profile (a 400 whose code says so). Every later batch would be refused the
/// same way, so the run stops at the first with one line that says what to check.
struct RefusedSetup: RunStop {
    enum Reason: Equatable {
        case tokenNotAllowed
        case cannotDecrypt
        case wireProfileRefused
    }

    let reason: Reason
    /// The API's URL for messages.
    let apiURL: String
    /// The run's `--wire`.
    let wireProfile: ZeroPiiWireProfile
    /// Where the input stopped being tokenized: "line 30", "value 3".
    let firstNotTokenized: String

    /// The reason for an answer that refuses the setup; nil for any other.
    static func reason(status: Int?, kind: ZeroPiiErrorKind?) -> Reason? {
        switch (status, kind) {
        case (403, _): return .tokenNotAllowed
        case (419, _): return .cannotDecrypt
        case (400, .configuration): return .wireProfileRefused
        default: return nil
        }
    }

    var description: String {
        let profiles = ZeroPiiWireProfile.allCases.map(\.rawValue).joined(separator: ", ")
        let what: String
        switch reason {
        case .tokenNotAllowed:
            what = "refused (HTTP 403) to tokenize with the run's access token; check that its client may tokenize with this API"
        case .cannotDecrypt:
            what = "could not decrypt the request (HTTP 419); check that --wire \(wireProfile.rawValue) is what it speaks (\(profiles))"
        case .wireProfileRefused:
            what = "does not accept --wire \(wireProfile.rawValue) (HTTP 400); give the --wire it speaks (\(profiles))"
        }
        return "the API \(apiURL) \(what). The run stopped: \(firstNotTokenized) and everything after it were not tokenized"
    }
}
