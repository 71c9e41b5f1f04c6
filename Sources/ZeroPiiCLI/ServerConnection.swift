import Foundation
import ZeroPiiMockServer
import ZeroPiiSDK
import ZeroPiiTransport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where the command's tokens come from: a real API, or the embedded mock server with
/// a vault that persists between runs.
struct ServerConnection {
    let sdk: ZeroPiiSDK
    let embeddedServer: MockTokenizationServer?
    let retries: CountingRetryPolicy
    /// The API's URL for messages, without user, password or query.
    let displayURL: String
    /// What `sdk` was initialised with, so that it can be initialised again with other settings.
    private let provider: AccessTokenProvider
    private let apiURL: String
    private let configuration: ZeroPiiConfiguration
    /// Where a real API's access tokens come from; nil for the embedded server.
    var tokenSource: RejectedCredentials.Source?

    struct Options {
        var apiURL: String?
        var accessToken: String?
        var tokenURL: String?
        var clientID: String?
        var dataDirectory: String?
        /// `--create-data-dir`: make `dataDirectory` with its missing parents.
        var createsDataDirectoryParents = false
        /// How bodies travel (`--wire`); the embedded server accepts every profile.
        var wireProfile = ZeroPiiWireProfile.protocolV1
        /// `--insecure-http`: plain http to another machine is allowed (test networks).
        var insecureHTTP = false
        /// `--ca-file`: certificate authorities to verify the servers against instead of the system's.
        var certificateAuthorityFile: String?
        /// `--pinned-key`: public keys the servers' certificates must have one of.
        var pinnedKeys: [String] = []

        /// Whether `--ca-file` or `--pinned-key` was given.
        var setsTLSTrust: Bool { certificateAuthorityFile != nil || !pinnedKeys.isEmpty }

        /// The usage error in this combination of options, if there is one. With
        /// `readingFiles` false the `--ca-file` is taken as checked: reading it costs as much
        /// as OpenSSL's loading of it, seconds for a large bundle.
        func problem(environment: [String: String], readingFiles: Bool = true) -> String? {
            if createsDataDirectoryParents && dataDirectory == nil { return "--create-data-dir goes with --data-dir DIR" }
            guard let apiURL else {
                if accessToken != nil || tokenURL != nil || clientID != nil {
                    return "--access-token, --token-url and --client-id go with --api-url"
                }
                if setsTLSTrust { return "--ca-file and --pinned-key go with --api-url" }
                return nil
            }
            if let problem = trustProblem(readingFiles: readingFiles) { return problem }
            guard let url = URL(string: apiURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), let host = url.host else {
                return "--api-url needs an http or https URL, for example https://api.example.com/"
            }
            if let problem = ServerConnection.portProblem(in: apiURL, option: "--api-url") { return problem }
            if dataDirectory != nil {
                return "--data-dir is the embedded server's vault; with --api-url the service keeps the tokens, so leave it out"
            }
            // Every profile needs TLS to reach another machine: plaintext carries the
            // values in clear, the CleverTap envelope carries its key beside them, and the
            // v1 envelope's keys come from the access token in the Authorization header
            // (Docs/Protocol.md section 5: it does not replace TLS).
            if url.scheme?.lowercased() == "http", !ThisMachine.isNamed(by: host), !insecureHTTP {
                return "--api-url \(ServerConnection.origin(of: url)) is plain http to another machine, where anyone on the network "
                    + "could read \(wireProfile == .protocolV1 ? "the access token, and with it the values" : "the values"): "
                    + "use https, or add --insecure-http on a test network"
            }
            if (tokenURL == nil) != (clientID == nil) {
                return "--token-url and --client-id go together"
            }
            if accessToken != nil { return nil }
            if let tokenURL {
                guard let url = URL(string: tokenURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), let host = url.host else {
                    return "--token-url needs an http or https URL"
                }
                if let problem = ServerConnection.portProblem(in: tokenURL, option: "--token-url") { return problem }
                if url.scheme?.lowercased() == "http", !ThisMachine.isNamed(by: host), !insecureHTTP {
                    return "--token-url \(ServerConnection.origin(of: url)) is plain http to another machine, where anyone on the network "
                        + "could read the client secret: use https, or add --insecure-http on a test network"
                }
                if environment[ServerConnection.clientSecretVariable]?.isEmpty ?? true {
                    return "--token-url needs the client secret in \(ServerConnection.clientSecretVariable)"
                }
                return nil
            }
            if !(environment[ServerConnection.accessTokenVariable]?.isEmpty ?? true) { return nil }
            return "--api-url needs --access-token TOKEN (or \(ServerConnection.accessTokenVariable)), or --token-url URL with --client-id ID"
        }

        /// The usage error in `--ca-file` and `--pinned-key`, if there is one.
        private func trustProblem(readingFiles: Bool) -> String? {
            guard setsTLSTrust else { return nil }
            #if canImport(ZeroPiiCurlShim) && os(Linux)
            // Trust settings for plain http would do nothing, and whoever asked for them
            // expects TLS.
            let urls = [apiURL, accessToken == nil ? tokenURL : nil].compactMap { $0 }
            guard urls.contains(where: { $0.lowercased().hasPrefix("https://") }) else {
                return "--ca-file and --pinned-key are for https; --api-url\(tokenURL == nil ? " is" : " and --token-url are") plain http"
            }
            for key in pinnedKeys where !CurlTransport.Options.isPinnedPublicKey(key) {
                let shown = Console.visible(key.count > 60 ? String(key.prefix(60)) + "…" : key)
                return "--pinned-key '\(shown)' is not sha256// followed by the Base64 of a 32-byte SHA-256 digest "
                    + "(one key per --pinned-key; curl's ';' lists are not taken)"
            }
            if let file = certificateAuthorityFile, readingFiles {
                return Self.certificateAuthorityProblem(file)
            }
            return nil
            #else
            return "--ca-file and --pinned-key need the libcurl transport, which zeropii uses on Linux only"
            #endif
        }

        #if canImport(ZeroPiiCurlShim) && os(Linux)
        /// The usage error in a `--ca-file`: not a regular file (a folder, or a FIFO, whose
        /// opening would block every request), not readable, over 64 MiB, without a PEM
        /// certificate, or refused by OpenSSL as libcurl would read it (curl error 77 on
        /// every request), with the line of the block at fault when it can be found
        /// (``PEMCertificateFile``).
        private static func certificateAuthorityProblem(_ file: String) -> String? {
            let shown = Console.visible(file)
            var status = stat()
            guard stat(file, &status) == 0 else { return "--ca-file '\(shown)' does not exist" }
            switch status.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: return "--ca-file '\(shown)' is a folder, not a file"
            // libcurl opens the file again for every new connection: a pipe would be read once.
            default: return "--ca-file '\(shown)' is not a regular file (a pipe or a device); libcurl reads it again for every connection"
            }
            guard let handle = FileHandle(forReadingAtPath: file) else { return "--ca-file '\(shown)' is not a file this user can read" }
            defer { try? handle.close() }
            // A bundle of every public authority is a few hundred KB.
            let limit = 64 << 20
            var text = Data()
            while text.count <= limit, let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { text += chunk }
            guard text.count <= limit else { return "--ca-file '\(shown)' is over 64 MiB, too large for a file of certificate authorities" }
            guard PEMCertificateFile.mentionsCertificate(text) else {
                return "--ca-file '\(shown)' holds no PEM certificate ('-----BEGIN CERTIFICATE-----'); a DER certificate converts with "
                    + "'openssl x509 -inform der -in FILE -out FILE.pem', a PKCS#7 bundle with 'openssl pkcs7 -print_certs -in FILE -out FILE.pem'"
            }
            guard CurlTransport.Options.certificateAuthoritiesLoad(from: file) == false else { return nil }
            let refused = "--ca-file '\(shown)' is refused whole by OpenSSL, so every request would fail (curl error 77): "
            switch PEMCertificateFile.problem(in: text) {
            case .unended(let line)?:
                return refused + "the block that begins on line \(line) has no '-----END' line of its name"
            case .notBase64(let line)?:
                return refused + "the block that begins on line \(line) is not Base64"
            case .notCertificate(let line)?:
                return refused + "the certificate that begins on line \(line) does not decode to a certificate"
            case .noCertificate?, nil:
                return refused + "look for a block that is cut off, Base64 broken by a blank line or a stray character, "
                    + "or lines that end in a carriage return alone"
            }
        }

        /// The libcurl transport's options for `--ca-file` and `--pinned-key`.
        func transportOptions(maximumConnections: Int) -> CurlTransport.Options {
            var options = CurlTransport.Options()
            options.pinnedPublicKeys = pinnedKeys
            options.trustedCertificateAuthorities = certificateAuthorityFile
            options.maximumConnections = max(1, maximumConnections)
            return options
        }
        #endif
    }

    /// With `--ca-file` or `--pinned-key`, one libcurl transport with that trust, for the
    /// token endpoint and the API both; nil without them (each uses the default transport).
    private static func trustingTransport(_ options: Options, maximumConnections: Int) throws -> (any HTTPTransport)? {
        guard options.setsTLSTrust else { return nil }
        #if canImport(ZeroPiiCurlShim) && os(Linux)
        do {
            return try CurlTransport(options: options.transportOptions(maximumConnections: maximumConnections))
        } catch {
            throw SetupError.failed("--ca-file and --pinned-key need libcurl, which could not be used: \(error)")
        }
        #else
        // Refused as a usage error before this is reached.
        return nil
        #endif
    }

    /// The usage error when the URL `text` names a port outside 1 to 65535, read from the
    /// text itself: `URL` gives no port at all for one past `Int.max`.
    static func portProblem(in text: String, option: String) -> String? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        var authority = text[schemeEnd.upperBound...].prefix { !"/?#".contains($0) }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") { authority = authority[authority.index(after: close)...] }
        guard let colon = authority.lastIndex(of: ":") else { return nil }
        let port = authority[authority.index(after: colon)...]
        // An empty port is the scheme's default.
        guard !port.isEmpty else { return nil }
        guard port.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return "\(option) has a port that is not a number; a port is a number from 1 to 65535"
        }
        if let number = Int(port), (1...65535).contains(number) { return nil }
        let shown = port.count > 24 ? String(port.prefix(24)) + "…" : String(port)
        return "\(option) has port \(shown); a port is a number from 1 to 65535"
    }

    /// The scheme, host and port of `url`, for messages: never its path or query.
    static func origin(of url: URL) -> String {
        let host = url.host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""
        return "\(url.scheme?.lowercased() ?? "")://\(host)\(url.port.map { ":\($0)" } ?? "")"
    }

    /// The environment variable that holds the client secret for `--token-url`.
    static let clientSecretVariable = "ZEROPII_CLIENT_SECRET"
    /// The environment variable that may hold the access token instead of
    /// `--access-token` (which other users of the machine can see in `ps`).
    static let accessTokenVariable = "ZEROPII_ACCESS_TOKEN"

    enum SetupError: Error, CustomStringConvertible {
        case usage(String)
        case failed(String)

        var description: String {
            switch self {
            case .usage(let message), .failed(let message): return message
            }
        }
    }

    /// Connects to the API given in `options`, or starts the embedded server (and says
    /// so on standard error when `announce` is set). With client credentials the first
    /// access token is fetched here, so wrong credentials stop the run before any input
    /// is sent.
    static func open(
        _ options: Options, configuration: ZeroPiiConfiguration = ZeroPiiConfiguration(), announce: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> ServerConnection {
        // The command's parsing checked the --ca-file already.
        if let problem = options.problem(environment: environment, readingFiles: false) { throw SetupError.usage(problem) }
        let retries = CountingRetryPolicy()
        var configuration = configuration
        configuration.callbackQueue = DispatchQueue(label: "zeropii.cli.callbacks")
        configuration.wireProfile = options.wireProfile
        if let apiURL = options.apiURL {
            let tokenTransport = try trustingTransport(options, maximumConnections: configuration.maximumConcurrentRequests)
            if let tokenTransport { configuration.transport = tokenTransport }
            let provider: AccessTokenProvider
            let source: RejectedCredentials.Source
            if let token = options.accessToken {
                provider = FixedTokenProvider(token: token)
                source = .commandLine
                Console.error(
                    "zeropii: warning: --access-token shows the token to anyone who can list processes; use \(accessTokenVariable) instead")
            } else if let tokenURL = options.tokenURL.flatMap(URL.init(string:)), let clientID = options.clientID {
                source = .tokenEndpoint(NetworkFailureText.redacted(tokenURL.absoluteString))
                let grant = ClientCredentialsGrant(
                    tokenURL: tokenURL, clientID: clientID, clientSecret: environment[clientSecretVariable] ?? "",
                    transport: tokenTransport ?? DefaultTransport.make(maximumConnections: 1).transport)
                let credentials = ClientCredentialsProvider(grant: grant)
                do {
                    try await credentials.prefetch()
                } catch {
                    throw SetupError.failed("\(error)")
                }
                provider = credentials
            } else {
                provider = FixedTokenProvider(token: environment[accessTokenVariable] ?? "")
                source = .environment
            }
            let sdk = ZeroPiiSDK.initialize(
                tokenProvider: provider, apiUrl: apiURL, logLevel: .off, retryPolicy: retries, configuration: configuration)
            return ServerConnection(
                sdk: sdk, embeddedServer: nil, retries: retries, displayURL: NetworkFailureText.redacted(apiURL), provider: provider,
                apiURL: apiURL, configuration: configuration, tokenSource: source)
        }

        // $HOME first: it is what users and CI set; Foundation's home lookup on Linux
        // reads the password database instead.
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        let directory = options.dataDirectory ?? DataDirectory.defaultPath(home: home)
        try DataDirectory.prepare(
            directory, origin: options.dataDirectory == nil ? .home(home) : .option, makeParents: options.createsDataDirectoryParents)
        let vaultPath = (directory as NSString).appendingPathComponent("vault.db")
        var serverConfiguration = MockServerConfiguration()
        serverConfiguration.dataFile = vaultPath
        // Parallel runs on one vault take turns: each waits for the one before, so all of
        // them succeed with the same tokens.
        serverConfiguration.whenVaultIsLocked = {
            FileHandle.standardError.write(
                Data("zeropii: the vault \(vaultPath) is in use by another zeropii process; waiting for it\n".utf8))
        }
        let server: MockTokenizationServer
        do {
            server = try MockTokenizationServer(configuration: serverConfiguration)
        } catch {
            throw SetupError.failed(
                ServerStartFailure.describe(error, host: serverConfiguration.host, port: serverConfiguration.port, server: "the embedded server"))
        }
        if announce {
            Console.error(
                "zeropii: no --api-url given; using the embedded mock server at \(server.baseURL.absoluteString) with its vault in \(directory)")
        }
        if server.vault.createdFile {
            // A new key, so every token differs from those of the vault the user may have
            // meant (another HOME under cron or sudo, a typo in --data-dir): never silent.
            Console.error(
                "zeropii: made a new vault \(vaultPath); its tokens differ from those of any other vault "
                    + "(another --data-dir, HOME or machine has its own)")
        }
        for note in ServerConnection.vaultNotes(for: server.vault, path: vaultPath) { Console.error(note) }
        let provider = EmbeddedServerTokenProvider(server: server)
        let sdk = ZeroPiiSDK.initialize(
            tokenProvider: provider, apiUrl: server.baseURL.absoluteString, logLevel: .off, retryPolicy: retries,
            configuration: configuration
        )
        return ServerConnection(
            sdk: sdk, embeddedServer: server, retries: retries, displayURL: server.baseURL.absoluteString, provider: provider,
            apiURL: server.baseURL.absoluteString, configuration: configuration, tokenSource: nil)
    }

    /// The shared SDK initialised again for the same API, token provider and settings
    /// but `wireProfile` (the demo shows each profile this way).
    func reinitialized(wireProfile: ZeroPiiWireProfile) -> ZeroPiiSDK {
        var configuration = configuration
        configuration.wireProfile = wireProfile
        return ZeroPiiSDK.initialize(tokenProvider: provider, apiUrl: apiURL, logLevel: .off, retryPolicy: retries, configuration: configuration)
    }

    /// A real API's answer that every later batch would get too, for the run to stop on:
    /// a 401 after the SDK's one refresh (the run's credentials are refused; the failure
    /// says where they came from), or a refusal of the setup (``RefusedSetup``). Nil for
    /// any other answer, and for the embedded server.
    func refusalForTheRun(status: Int?, kind: ZeroPiiErrorKind?, firstNotTokenized: String) -> (any RunStop)? {
        guard let tokenSource else { return nil }
        if status == 401, kind == .authentication {
            return RejectedCredentials(source: tokenSource, apiURL: displayURL, firstNotTokenized: firstNotTokenized)
        }
        return RefusedSetup.reason(status: status, kind: kind).map {
            RefusedSetup(reason: $0, apiURL: displayURL, wireProfile: configuration.wireProfile, firstNotTokenized: firstNotTokenized)
        }
    }

    /// The embedded server's vault could not store values (a full disk), which it
    /// answers with a generic HTTP 500: the failure that names the file and the
    /// system's reason, for a run to stop on. `nil` for any other answer, and always
    /// against a real API.
    func embeddedVaultFailure(status: Int?, firstNotTokenized: String) -> EmbeddedVaultFailure? {
        guard status == 500, let error = embeddedServer?.statistics.lastVaultError else { return nil }
        return EmbeddedVaultFailure(error: error, firstNotTokenized: firstNotTokenized)
    }

    func close() {
        embeddedServer?.stop()
    }

    /// The lines `serve` and `tokenize` print about how they found the vault kept in
    /// `path`, one per finding:
    /// - a file other users could read or change, which the vault has made owner-only;
    /// - an end dropped as the unfinished write of a request never answered (a crash, a
    ///   full disk);
    /// - an index that could not be written, held in memory instead.
    static func vaultNotes(for vault: TokenVault, path: String) -> [String] {
        var notes: [String] = []
        if let mode = vault.tightenedFromMode {
            let octal = String(mode, radix: 8)
            notes.append(
                "zeropii: the vault \(path) could be read or changed by other users (mode \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal)); "
                    + "it holds the token key, so it is now owner-only (0600)")
        }
        if vault.droppedBytes > 0 {
            let bytes = vault.droppedBytes
            notes.append(
                "zeropii: note: the vault \(path) ended in \(bytes) \(bytes == 1 ? "byte" : "bytes") of an unfinished write, "
                    + "never answered (a crash or a full disk); they were dropped")
        }
        if let failure = vault.indexUnwritable {
            let values = vault.count
            notes.append(
                "zeropii: note: \(failure), so the vault's index is held in memory: the \(values) "
                    + "\(values == 1 ? "value" : "values") it holds are served, and new values are taken only while the vault file can still be written"
            )
        }
        return notes
    }
}
