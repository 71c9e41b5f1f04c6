import Foundation
import Testing
import ZeroPiiTestSupport
import ZeroPiiTransport

@testable import ZeroPiiCLI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct ArgumentConventionsTests {
    static func options(_ arguments: [String], environment: [String: String] = [:]) -> TokenizeCommand.Options? {
        if case .options(let options) = TokenizeCommand.parse(arguments, environment: environment) { return options }
        return nil
    }

    static func failure(_ arguments: [String], environment: [String: String] = [:]) -> String? {
        if case .failure(let message) = TokenizeCommand.parse(arguments, environment: environment) { return message }
        return nil
    }

    @Test func optionsTakeTheirValueWithEqualsToo() {
        let options = Self.options(["--csv=in.csv", "--columns=email,phone", "--delimiter=;", "--output=out.csv", "--concurrency=2"])
        #expect(options?.csvPath == "in.csv" && options?.columns == ["email", "phone"])
        #expect(options?.delimiter == UInt8(ascii: ";") && options?.outputPath == "out.csv" && options?.concurrency == 2)
        #expect(Self.options(["--csv", "in.csv", "--columns", "a", "--delimiter", "tab"])?.delimiter == UInt8(ascii: "\t"))
        #expect(Self.failure(["--quiet=yes", "x"]) == "--quiet takes no value")
        #expect(Self.failure(["--csv=", "--columns", "a"]) == "--csv needs a file (or '-' for standard input)")
        #expect(Self.failure(["--csv", "f", "--columns", "a", "--delimiter", ":"]) == "--delimiter takes ',' ';' '|' or 'tab'")
        #expect(Self.failure(["--delimiter", ";", "x"]) == "--delimiter goes with --csv")
    }

    /// Found from outside: `--wire plaintext` to an `http://` URL of another machine
    /// sent values in clear over the network without a word. It is a usage error
    /// unless the URL is https or the host is this machine.
    /// Plain http to another machine gives the values away whatever the profile: the
    /// v1 envelope's keys come from the access token in the Authorization header, the
    /// CleverTap envelope carries its key, plaintext carries the values, and a token
    /// endpoint gets the client secret. Only loopback, or `--insecure-http`.
    @Test func plainHTTPIsOnlyForThisMachineUnlessInsecureHTTPIsGiven() {
        let token = ["--access-token", "t", "x"]
        for profile in ["v1", "clevertap", "plaintext"] {
            let says = profile == "v1" ? "the access token, and with it the values" : "the values"
            for (url, origin) in [
                ("http://api.example.com/tokens?key=secret", "http://api.example.com"), ("http://10.0.0.5:8080/", "http://10.0.0.5:8080"),
                ("HTTP://192.168.1.2/", "http://192.168.1.2"), ("http://127.0.0.1.example.com/", "http://127.0.0.1.example.com"),
            ] {
                let refusal =
                    "--api-url \(origin) is plain http to another machine, where anyone on the network could read \(says): "
                    + "use https, or add --insecure-http on a test network"
                #expect(Self.failure(["--wire", profile, "--api-url", url] + token) == refusal, "\(profile) \(url)")
                #expect(Self.options(["--insecure-http", "--wire", profile, "--api-url", url] + token) != nil, "\(profile) \(url)")
            }
            for url in [
                "https://api.example.com/", "http://127.0.0.1:8080/", "http://127.1.2.3/", "http://localhost:8080/", "http://[::1]:8080/",
                "http://127.1:8080/", "http://0x7f000001/",
            ] {
                #expect(Self.options(["--wire", profile, "--api-url", url] + token) != nil, "\(profile) \(url)")
            }
        }
        let credentials = ["--api-url", "https://api.example.com/", "--client-id", "app", "x"]
        #expect(
            Self.failure(["--token-url", "http://auth.example.com/oauth/token"] + credentials, environment: ["ZEROPII_CLIENT_SECRET": "s"])
                == "--token-url http://auth.example.com is plain http to another machine, where anyone on the network could read the client "
                + "secret: use https, or add --insecure-http on a test network")
        #expect(
            Self.options(["--token-url", "http://127.0.0.1:9/oauth/token"] + credentials, environment: ["ZEROPII_CLIENT_SECRET": "s"]) != nil)
    }

    /// Found from outside: port 99999 was tried, retried after 2 s, and reported as a
    /// network failure.
    @Test func aPortOutsideOneTo65535IsAUsageError() {
        let token = ["--access-token", "t", "x"]
        #expect(Self.failure(["--api-url", "http://127.0.0.1:99999/"] + token) == "--api-url has port 99999; a port is a number from 1 to 65535")
        #expect(Self.failure(["--api-url", "https://api.example.com:0/"] + token) == "--api-url has port 0; a port is a number from 1 to 65535")
        #expect(Self.options(["--api-url", "https://api.example.com:65535/"] + token) != nil)
        #expect(Self.options(["--api-url", "https://api.example.com:/"] + token) != nil)
        #expect(Self.options(["--api-url", "https://user:pa:ss@api.example.com/"] + token) != nil)
        #expect(Self.options(["--api-url", "http://[::1]:8080/"] + token) != nil)
        // Past Int.max `URL` has no port at all (found from outside: exit 1, "the URL cannot be used").
        #expect(
            Self.failure(["--api-url", "http://127.0.0.1:9223372036854775808/"] + token)
                == "--api-url has port 9223372036854775808; a port is a number from 1 to 65535")
        #expect(
            Self.failure(["--api-url", "https://example.com:99999999999999999999999999999999/"] + token)
                == "--api-url has port 999999999999999999999999…; a port is a number from 1 to 65535")
        #expect(Self.failure(["--api-url", "http://[::1]:70000/"] + token) == "--api-url has port 70000; a port is a number from 1 to 65535")
        let credentials = ["--api-url", "https://api.example.com/", "--client-id", "app", "x"]
        #expect(
            Self.failure(["--token-url", "https://auth.example.com:70000/oauth/token"] + credentials, environment: ["ZEROPII_CLIENT_SECRET": "s"])
                == "--token-url has port 70000; a port is a number from 1 to 65535")
    }

    @Test func aDashReadsStandardInputAndDoubleDashMakesItAValue() {
        #expect(Self.options(["-"])?.valuesPath == "-")
        #expect(Self.options(["--values-from", "values.txt"])?.valuesPath == "values.txt")
        let literal = Self.options(["--", "-", "--not-an-option"])
        #expect(literal?.valuesPath == nil && literal?.values == ["-", "--not-an-option"])
        #expect(Self.failure(["-", "x"]) == "give values or '-' (values from standard input), not both")
        #expect(
            Self.failure(["--values-from", "f", "--csv", "g", "--columns", "a"]) == "give one input: values, '-', --values-from FILE or --csv FILE")
    }

    @Test func theAccessTokenMayComeFromTheEnvironment() {
        #expect(
            Self.failure(["--api-url", "https://api.test/", "x"])
                == "--api-url needs --access-token TOKEN (or ZEROPII_ACCESS_TOKEN), or --token-url URL with --client-id ID")
        #expect(Self.options(["--api-url", "https://api.test/", "x"], environment: ["ZEROPII_ACCESS_TOKEN": "t"]) != nil)
        #expect(Self.failure(["--api-url", "not a url", "--access-token", "t", "x"]) != nil)
        #expect(Self.failure(["--access-token", "t", "x"]) == "--access-token, --token-url and --client-id go with --api-url")
        // Set for other tools, it does not get in the way of the embedded server.
        #expect(Self.options(["x"], environment: ["ZEROPII_ACCESS_TOKEN": "t"]) != nil)
        #expect(
            Self.failure(["--api-url", "https://api.test/", "--token-url", "https://api.test/oauth/token", "--client-id", "c", "x"])
                == "--token-url needs the client secret in ZEROPII_CLIENT_SECRET")
    }

    @Test func serveGetsEqualsValuesSplitUpToTheDoubleDash() {
        #expect(
            CommandLineInterface.splittingInlineValues(["--port=0", "--client=a:b=c", "--admin", "--", "--x=y"]) == [
                "--port", "0", "--client", "a:b=c", "--admin", "--", "--x=y",
            ])
    }

    @Test func everyCommandHasItsHelp() {
        #expect(Usage.help(for: "tokenize") == Usage.tokenize)
        #expect(Usage.help(for: "serve") == Usage.serve)
        #expect(Usage.help(for: "demo") == Usage.demo)
        #expect(Usage.help(for: "frobnicate") == nil)
        for option in ["--delimiter", "--values-from", "ZEROPII_ACCESS_TOKEN", "--name=value"] {
            #expect((Usage.tokenize + Usage.main).contains(option), "\(option) is not in the help")
        }
    }
}

struct MessagesPeopleCanActOnTests {
    @Test func theSummaryCountsInTheRightNumberAndShowsARateOnlyWhenItMeansSomething() {
        var summary = RunSummary(rows: 1, values: 1, created: 1, existing: 0, retries: 1, failedRows: 1, elapsed: 0.05)
        #expect(summary.text == "zeropii: 1 row, 1 value (1 new token, 0 existing), 1 retry, 1 row failed, 0.1 s")
        summary = RunSummary(rows: 3000, values: 6000, created: 2, existing: 5998, blankLines: 2, retries: 0, failedRows: 0, elapsed: 2)
        #expect(
            summary.text
                == "zeropii: 3000 rows, 6000 values (2 new tokens, 5998 existing), 2 blank lines passed through, 0 retries, 0 rows failed, 2.0 s (1500 rows/s)"
        )
        #expect(RunSummary().text == "zeropii: 0 rows, 0 values (0 new tokens, 0 existing), 0 retries, 0 rows failed, 0.0 s")
        // Values one per line (`tokenize -`) are counted in lines.
        let lines = RunSummary(unit: "line", rows: 4000, values: 1, created: 1, blankLines: 3999, failedRows: 1, elapsed: 2)
        #expect(
            lines.text
                == "zeropii: 4000 lines, 1 value (1 new token, 0 existing), 3999 blank lines passed through, 0 retries, 1 line failed, 2.0 s (2000 lines/s)"
        )
    }

    @Test func networkFailuresAreWords() {
        #expect(
            NetworkFailureText.describe("the network request failed: the connection failed (URLError -1004)")
                == "the network request failed: connection refused")
        #expect(NetworkFailureText.describe("the connection failed (URLError -1003)") == "host not found")
        // The curl transport's numbers and phrases (found from outside: garbage answers
        // were "the URL cannot be used", and several codes stayed numbers).
        for (code, words) in [
            (7, "connection refused"), (6, "host not found"), (28, "timed out"),
            (
                60,
                "the server's TLS certificate could not be verified (expired, for another name, or from an authority not trusted here; "
                    + "for an authority of your own, see --ca-file)"
            ),
            (90, "the server's public key is not the pinned one (check --pinned-key)"), (77, "the --ca-file could not be used"),
            (61, "the answer's encoding cannot be decoded"),
            (1, "the answer was not HTTP"), (8, "the answer was not HTTP"), (18, "the answer ended early"), (27, "the answer was too long"),
            (97, "the proxy failed"), (12345, "network error (libcurl 12345)"),
        ] {
            #expect(
                NetworkFailureText.describe("the network request failed: the connection failed (curl \(code))")
                    == "the network request failed: \(words)")
        }
        #expect(NetworkFailureText.describe("the connection failed (curl response too large)") == "the answer was too long")
        #expect(
            NetworkFailureText.describe("the connection failed (curl incomplete response)")
                == "the connection closed in the middle of the answer's headers")
        #expect(
            NetworkFailureText.describe("the connection failed (invalid header field)") == "a request header holds a line break or an invalid name")
        #expect(NetworkFailureText.describe("the connection failed (URLError -99999)") == "network error -99999")
        // Found from outside: "network error -1" for a connection the server reset.
        #expect(
            NetworkFailureText.describe("the connection failed (URLError -1)")
                == "the connection failed (reset or closed by the server, or a local network error)")
        #expect(NetworkFailureText.describe("the connection failed (URLError -1014)") == "the server closed the connection without an answer")
        #expect(NetworkFailureText.describe("the request timed out") == "the request timed out")
        #expect(NetworkFailureText.describe(URLError(.timedOut)) == "timed out")
        #expect(
            NetworkFailureText.redacted(URL(string: "https://user:s3cret@api.test:8443/v1/?key=s3cret#x")!) == "https://api.test:8443/v1/")
    }

    @Test func aPortInUseSaysWhatToDo() {
        #expect(
            ServerStartFailure.describe(POSIXError(.EADDRINUSE), host: "127.0.0.1", port: 8080)
                == "port 8080 is in use; choose another with --port or use --port 0")
        #expect(
            ServerStartFailure.describe(POSIXError(.EINVAL), host: "::1", port: 8080) == "'::1' is not an IPv4 address; give --host such as 127.0.0.1"
        )
    }

    @Test func theTokenEndpointsErrorCodeIsPassedOnOnlyWhenTheRFCOrTheProtocolDocumentsIt() {
        #expect(ClientCredentialsGrant.errorCode(in: ["error": "invalid_client"]) == "invalid_client")
        #expect(ClientCredentialsGrant.errorCode(in: ["error": ["code": "invalid_client", "message": "m"]]) == "invalid_client")
        #expect(ClientCredentialsGrant.errorCode(in: ["error": "the secret s3cret is wrong"]) == nil)
        // Found from outside: an endpoint that put the client secret in `error` had it
        // printed, since it looked like an identifier.
        #expect(ClientCredentialsGrant.errorCode(in: ["error": "secretsecret123"]) == nil)
        #expect(ClientCredentialsGrant.errorCode(in: ["error": ["code": "too_many_attempts"]]) == "too_many_attempts")
        #expect(ClientCredentialsGrant.errorCode(in: nil) == nil)
    }

    /// Found from outside: a 403 (and a 419, and a wire-profile 400) failed batch by
    /// batch to the end of the input; each stops the run at the first, saying what to check.
    @Test func refusalsOfTheSetupStopTheRun() {
        #expect(RefusedSetup.reason(status: 403, kind: .authentication) == .tokenNotAllowed)
        #expect(RefusedSetup.reason(status: 419, kind: .configuration) == .cannotDecrypt)
        #expect(RefusedSetup.reason(status: 400, kind: .configuration) == .wireProfileRefused)
        #expect(RefusedSetup.reason(status: 400, kind: .invalidInput) == nil)
        #expect(RefusedSetup.reason(status: 401, kind: .authentication) == nil)
        #expect(RefusedSetup.reason(status: nil, kind: .network) == nil)
        let stop = RefusedSetup(reason: .tokenNotAllowed, apiURL: "https://api.example.test/", wireProfile: .protocolV1, firstNotTokenized: "line 2")
        #expect(
            stop.description
                == "the API https://api.example.test/ refused (HTTP 403) to tokenize with the run's access token; check that its client "
                + "may tokenize with this API. The run stopped: line 2 and everything after it were not tokenized")
    }

    /// Found from outside: a token endpoint answering 429 or 503 gave no advice.
    @Test func aBusyTokenEndpointSaysToTryAgainLater() async throws {
        for (status, body) in [(429, #"{"error":"too_many_attempts"}"#), (503, #"{"error":"secretsecret123"}"#)] {
            let grant = ClientCredentialsGrant(
                tokenURL: URL(string: "https://auth.example.test/oauth/token")!, clientID: "id", clientSecret: "secretsecret123",
                transport: ClosureTransport { _ in TransportResponse(statusCode: status, body: Data(body.utf8)) })
            do {
                _ = try await grant.requestToken()
                Issue.record("HTTP \(status) gave a token")
            } catch let failure as ClientCredentialsGrant.Failure {
                let code = status == 429 ? " too_many_attempts" : ""
                #expect(
                    failure.description
                        == "the token endpoint https://auth.example.test/oauth/token answered \(status)\(code): it is busy or limiting requests; try again later"
                )
                #expect(!failure.description.contains("secretsecret123"))
            }
        }
    }
}
