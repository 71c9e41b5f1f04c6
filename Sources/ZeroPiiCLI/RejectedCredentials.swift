/// The API answered 401 to an access token that cannot change during the run (one given
/// with `--access-token` or `ZEROPII_ACCESS_TOKEN`), or to the tokens a token endpoint
/// issues: every later batch would fail the same way, so the run stops at the first with
/// one line that says where the token came from and what to check. Never shows the token.
struct RejectedCredentials: Error, CustomStringConvertible {
    /// Where the run's access tokens come from.
    enum Source: Sendable, Equatable {
        case commandLine
        case environment
        case tokenEndpoint(String)
    }

    let source: Source
    /// The API's URL for messages.
    let apiURL: String
    /// Where the input stopped being tokenized: "line 30", "value 3".
    let firstNotTokenized: String

    var description: String {
        let what: String
        switch source {
        case .commandLine:
            what = "the access token given with --access-token; check that it is current and issued for this API"
        case .environment:
            what = "the access token in \(ServerConnection.accessTokenVariable); check that it is current and issued for this API"
        case .tokenEndpoint(let url):
            what = "the access tokens from the token endpoint \(url); check that --client-id's client may use this API"
        }
        return "the API \(apiURL) rejected (HTTP 401) \(what). The run stopped: \(firstNotTokenized) and everything after it were not tokenized"
    }
}
