import Foundation

/// Help texts and usage errors.
enum Usage {
    static let main = """
        zeropii: tokenize personal data with format-preserving tokens

        Usage:
          zeropii tokenize VALUE...                      print one token per value
          zeropii tokenize --csv FILE --columns a,b      tokenize columns of a CSV file
          zeropii demo                                   a one-minute tour of the SDK
          zeropii serve [options]                        run the mock tokenization server

        Without --api-url, tokenize and demo use an embedded mock server whose vault is
        kept in ~/.zeropii, so tokens stay the same from run to run.

        Run 'zeropii <command> --help' for a command's options.
        """

    static let serve = """
        zeropii serve: run the mock tokenization server (PROTOCOL.md v1)

        Usage: zeropii serve [--host H] [--port N] [--data-file F] [--token-ttl S]
                             [--client-file F] [--demo-client] [--allow-any-token]
                             [--admin] [--log-requests]

        Options:
          --host H             IPv4 address to bind (default 127.0.0.1)
          --port N             port to listen on; 0 picks a free one (default 8080)
          --data-file F        keep the vault in F, so tokens survive restarts
          --token-ttl S        lifetime of issued access tokens in seconds (default 3600)
          --client-file F      accept the client credentials in F at POST /oauth/token:
                               one ID:SECRET per line, '#' starts a comment
          --demo-client        also accept the public demo pair zeropii-demo:zeropii-demo-secret
          --client ID:SECRET   for tests only: the secret shows in the process list (warns)
          --allow-any-token    development mode: accept any non-empty bearer token
          --admin              enable the /__admin/ endpoints (faults, stats, reset)
          --log-requests       one line per request on standard error: time, method,
                               path, status, milliseconds, number of values (never a
                               value, token or access token)
          -h, --help           show this help

        Client credentials can also come from ZEROPII_SERVE_CLIENTS (ID:SECRET entries
        separated by spaces or newlines). Without any, the token endpoint refuses all.

        Limits: requests must arrive within 15 s of their first byte, idle connections
        close after 30 s, a response not taken by the client within 30 s closes its
        connection, bodies held in memory are capped at 256 MiB in all (503 beyond),
        and 5 failed token requests per client id or address lock it for 60 s (429).

        Stops cleanly on SIGINT or SIGTERM.
        """

    static let tokenize = """
        zeropii tokenize: replace values with format-preserving tokens

        Usage: zeropii tokenize [options] VALUE...
               zeropii tokenize [options] --csv FILE --columns NAME[,NAME...] [--output FILE]

        Input:
          VALUE...                 values to tokenize; one token per line on standard output
          --csv FILE               a CSV file with a header row ('-' for standard input)
          --columns a,b            the columns to tokenize; every other byte is copied as is
          --output FILE            where the rewritten CSV goes ('-', the default, for standard output)
          --strict                 stop at the first malformed row instead of reporting it and going on

        Server (default: the embedded mock server):
          --api-url URL            the tokenization API
          --access-token TOKEN     a bearer token for it
          --token-url URL          or a client-credentials token endpoint, with
          --client-id ID           the client id; the secret is read from ZEROPII_CLIENT_SECRET
          --data-dir DIR           the embedded server's vault directory (default ~/.zeropii)

        Tuning and output:
          --concurrency N          batches in flight at once (default 4)
          --quiet                  no progress and no summary on standard error
          -h, --help               show this help

        Exit status: 0 when everything was tokenized, 1 when some rows or values could not
        be (reported by line number, never by value), 2 for a usage error.
        """

    static let demo = """
        zeropii demo: a one-minute tour against the embedded mock server

        Usage: zeropii demo [--data-dir DIR]

        Tokenizes one value of each type and a batch, twice, to show newlyCreated on the
        first run and exists on the second, and shows what travelled on the wire (the
        envelope's fields, never the plaintext).
        """

    /// Prints a usage error and a hint to standard error.
    static func fail(_ message: String, hint: String) {
        FileHandle.standardError.write(Data("zeropii: \(message)\n\(hint)\n".utf8))
    }
}
