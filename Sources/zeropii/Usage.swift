import Foundation

/// Help texts and usage errors.
enum Usage {
    static let main = """
        zeropii: tokenize personal data with format-preserving tokens

        Usage:
          zeropii serve [options]     run the mock tokenization server

        Run 'zeropii <command> --help' for a command's options.
        """

    static let serve = """
        zeropii serve: run the mock tokenization server (PROTOCOL.md v1)

        Usage: zeropii serve [--host H] [--port N] [--data-file F] [--token-ttl S]
                             [--client ID:SECRET]... [--allow-any-token] [--admin]

        Options:
          --host H             IPv4 address to bind (default 127.0.0.1)
          --port N             port to listen on; 0 picks a free one (default 8080)
          --data-file F        keep the vault in F, so tokens survive restarts
          --token-ttl S        lifetime of issued access tokens in seconds (default 3600)
          --client ID:SECRET   accept these client credentials at POST /oauth/token
                               (repeatable; default zeropii-demo:zeropii-demo-secret)
          --allow-any-token    development mode: accept any non-empty bearer token
          --admin              enable the /__admin/ endpoints (faults, stats, reset)
          -h, --help           show this help

        Stops cleanly on SIGINT or SIGTERM.
        """

    /// Prints a usage error and a hint to standard error.
    static func fail(_ message: String, hint: String) {
        FileHandle.standardError.write(Data("zeropii: \(message)\n\(hint)\n".utf8))
    }
}
