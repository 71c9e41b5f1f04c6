import Foundation
import ZeroPiiSDK

/// Help texts and usage errors.
enum Usage {
    static let main = """
        zeropii: tokenize personal data with format-preserving tokens

        Usage:
          zeropii tokenize VALUE...                      print one token per value
          zeropii tokenize -                             tokenize standard input, one value per line
          zeropii tokenize --csv FILE --columns a,b      tokenize columns of a CSV file
          zeropii demo                                   a one-minute tour of the SDK
          zeropii serve [options]                        run the mock tokenization server
          zeropii help [COMMAND]                         this help, or a command's options
          zeropii version                                the version (also --version)

        Without --api-url, tokenize and demo use an embedded mock server whose vault is
        kept in ~/.zeropii, so tokens stay the same from run to run.

        Options take their value as '--name value' or '--name=value'. Data goes to
        standard output; progress, notes and errors to standard error.

        Run 'zeropii help <command>' for a command's options.
        """

    static let serve = """
        zeropii serve: run the mock tokenization server (Docs/Protocol.md: the v1 envelope, the
        CleverTap-compatible envelope and plaintext, on the same endpoints)

        Usage: zeropii serve [--host H] [--port N] [--data-file F] [--token-ttl S]
                             [--client-file F] [--demo-client] [--allow-any-token]
                             [--admin [--admin-token-file F]] [--log-requests]
                             [--wire LIST]

        Options:
          --host H             IPv4 address to bind (default 127.0.0.1)
          --port N             port to listen on; 0 picks a free one (default 8080)
          --data-file F        keep the vault in F (and its index in F.index), so tokens
                               survive restarts
          --token-ttl S        lifetime of issued access tokens in seconds (default 3600)
          --client-file F      accept the client credentials in F at POST /oauth/token:
                               one ID:SECRET per line, '#' starts a comment
          --demo-client        also accept the public demo pair zeropii-demo:zeropii-demo-secret
          --client ID:SECRET   for tests only: the secret shows in the process list (warns)
          --allow-any-token    development mode: accept any non-empty bearer token
          --admin              enable the /__admin/ endpoints (faults, stats, reset). On
                               127.0.0.1 they take no credentials; on any other host
                               they need 'Authorization: Bearer TOKEN', with a token
                               made at start and printed on standard error
          --admin-token-file F the admin token to require instead (first line, at
                               least 16 visible ASCII characters), on any host
          --wire LIST          accept only these wire profiles, comma separated, of
                               v1 (X-ZeroPii-Encryption: v1), clevertap (Encrypted: true)
                               and plaintext; default v1, the SDK's default. A request
                               in another is refused: 419 if encrypted, 400 if
                               plaintext (so --wire clevertap shows that an app never
                               falls back)
                               --client, --client-file and --wire add up when given
                               more than once; every other option may be given once
          --log-requests       one line per request on standard error: time, method,
                               path, status, milliseconds, number of values (never a
                               value, token or access token)
          -h, --help           show this help

        Client credentials can also come from ZEROPII_SERVE_CLIENTS (ID:SECRET entries
        separated by spaces or newlines). Without any, the token endpoint refuses all.

        Limits: a new connection must send its first byte within 5 s, requests must
        arrive within 15 s of their first byte, idle connections close after 30 s, a
        response not taken by the client within 30 s closes its connection, one
        address holds at most 256 connections and the server 1024 (an idle one gives
        way, else 503), bodies held in memory are capped at 256 MiB in all (503
        beyond), and after 10 failed token requests a client id or address may try
        once every 6 s (429 with Retry-After meanwhile).

        Stops cleanly on SIGINT or SIGTERM.
        """

    static let tokenize = """
        zeropii tokenize: replace values with format-preserving tokens

        Usage: zeropii tokenize [options] VALUE...
               zeropii tokenize [options] -                 (or --values-from FILE)
               zeropii tokenize [options] --csv FILE --columns NAME[,NAME...] [--output FILE]

        Input:
          VALUE...                 values to tokenize; one token per line on standard output
          -                        read values from standard input, one per line (streamed;
                                   an empty line gives an empty line, and so does a value
                                   that cannot be tokenized, which is reported on standard
                                   error; use '--' before a value that is a lone '-')
          --values-from FILE       read values from FILE, one per line ('-' for standard input)
          --csv FILE               a CSV file with a header row ('-' for standard input)
          --columns a,b            the columns to tokenize; every other byte is copied as is.
                                   Given more than once, the lists add up.
                                   Every column headed by exactly that name is tokenized
                                   (a note says when there are several); a name that
                                   differs only in case from one column is used, with a note
          --no-header              the CSV has no header row: its first line is data, and
                                   --columns gives positions counted from 1 (--columns 1,3);
                                   every row must have the field count most of the first
                                   1000 rows have (so one odd first row cannot set it)
          --encoding E             how the input is written when no byte-order mark says so:
                                   utf-8 (default), windows-1252 (Excel's CSV on Windows),
                                   iso-8859-1, utf-16le or utf-16be. Values are converted to
                                   UTF-8 before they are tokenized, and converted input is
                                   written as UTF-8 (a row that could not be is left out).
                                   UTF-8 input keeps other columns' bytes as they came
          --rejects FILE           copy every row left out of the output to FILE, as it
                                   came (in UTF-8; text that could not be converted shows
                                   as the byte 0xFF), behind two fields: its line number
                                   and the reason
                                   (with the header in front). Replaced like --output
          --delimiter D            the CSV delimiter: ',' ';' '|' or 'tab'. Without it, the
                                   one of these found most often on the header line (outside
                                   quotes); on a tie the earlier in that list; ',' if none
          --output FILE            where the rewritten CSV or the tokens go ('-', the default,
                                   for standard output). FILE is replaced only when the run
                                   finishes (its rows go to a new file beside it first); a
                                   run that stops early (SIGINT, SIGTERM, --strict, a full
                                   vault, a refused token, a server gone) keeps FILE as it
                                   was and leaves the rows so far in FILE.partial
          --strict                 stop at the first malformed row instead of reporting it and going on
          --as string|double|float VALUEs as text (default), or as numbers sent the way the SDK
                                   sends a Double or Float (1e7 as 1.0E7, as on Android)

        CSV as spreadsheets write it: a byte-order mark says the encoding (UTF-8, UTF-16 LE
        or BE; Excel's "Unicode Text" is UTF-16 with tabs), and the output starts with a
        UTF-8 one when the input had any; blank lines are copied as they are; CRLF, LF or
        CR (Excel for Mac) line endings and quoting are kept. A quote never closed takes
        in the rest of the file; the report names the line it was opened on and the lines
        it took. A row's values may outnumber a request's 1000: they are sent in several
        and put back in order.

        Rows left out (each reported by line number, never by value, and copied to
        --rejects FILE if given): a malformed row; a row with more or fewer fields than
        the header (such as an unquoted "Smith, John"); a row longer than 16 MiB; a row
        whose value to tokenize is over 4096 bytes (UTF-8) or not valid in the input's
        encoding; a row whose batch the server did not tokenize.

        Messages never list the header's cells (a file without a header has personal data
        on its first line), never show one that looks like data (holding '@', four or more
        digits or a control character, or longer than 40 characters: it is named by its
        position), and never echo a --columns name that looks like data.

        Server (default: the embedded mock server):
          --api-url URL            the tokenization API
          --access-token TOKEN     a bearer token for it (or set ZEROPII_ACCESS_TOKEN, which
                                   unlike an argument does not show in 'ps')
          --token-url URL          or a client-credentials token endpoint, with
          --client-id ID           the client id; the secret is read from ZEROPII_CLIENT_SECRET
          --data-dir DIR           the embedded server's vault directory (default ~/.zeropii);
                                   made if missing, but only in a folder that exists. A run
                                   that makes a new vault says so: its tokens are its own
          --create-data-dir        make --data-dir's missing parent folders too
          --wire PROFILE           how bodies travel: v1 (the ZeroPii envelope, default),
                                   clevertap (the envelope of CleverTap's Android SDK, for
                                   CleverTap's service) or plaintext (values in clear)
          --insecure-http          allow plain http --api-url and --token-url to another
                                   machine (test networks only): without TLS, anyone on the
                                   network can read the access token or client secret, and
                                   with them the values, whatever the profile; without this
                                   option http is only for 127.0.0.1, ::1 and localhost
          --ca-file FILE           trust the certificate authorities in this PEM file for
                                   --api-url and --token-url instead of the system's (a
                                   company's own CA, a test server's)
          --pinned-key KEY         also require the server's public key to be KEY:
                                   sha256// and the Base64 of the SHA-256 of its DER
                                   SubjectPublicKeyInfo, as one key of 'curl
                                   --pinnedpubkey'. Given more than once (one key each),
                                   any of the keys will do.
                                   Both options need the libcurl transport (Linux); a
                                   certificate or key that does not verify is not retried

        Tuning and output:
          --concurrency N          batches in flight at once (default 4)
          --quiet                  no progress, banner or summary on standard error
          -h, --help               show this help

        Tokens go to standard output; progress, notes and the summary (after --csv, '-' and
        --values-from) to standard error. If the embedded server's vault cannot store
        tokens (a full disk), the run stops with one line naming the file and the reason.
        If the reader of the output goes away (| head), the run stops quietly with status
        141, as cat does.

        Every option but --columns may be given once: a second one is a usage error.

        An access token the API refuses (HTTP 401) stops the run at the first batch, with
        one line saying where the token came from.

        Exit status:
          0        everything was tokenized
          1        some rows or values could not be (reported by line number, never by
                   value), a file could not be read or written, or the run stopped
          2        a usage error: an option, a column, or an encoding that does not fit
          130/143/129  SIGINT/SIGTERM/SIGHUP: the run stops as after --strict (a
                   second signal ends it at once)
          141      the reader of the output went away
        """

    static let demo = """
        zeropii demo: a one-minute tour against the embedded mock server

        Usage: zeropii demo [--data-dir DIR] [--wire v1|clevertap|plaintext]

        Tokenizes one value of each type and a batch, twice, to show newlyCreated on the
        first run and exists on the second, and then shows the bytes of one request and
        its answer on the wire in each wire profile (long fields shortened); with --wire,
        everything goes in that profile and only its bytes are shown.
        """

    /// What `zeropii version` and `zeropii --version` print: the SDK's version.
    static var version: String { "zeropii \(ZeroPiiSDK.version)" }

    /// The help for `command`, or nil when there is no such command.
    static func help(for command: String) -> String? {
        switch command {
        case "tokenize": return tokenize
        case "serve": return serve
        case "demo": return demo
        case "help": return main
        case "version": return "zeropii version: print the version of zeropii and the ZeroPii SDK it is built with"
        default: return nil
        }
    }

    /// Prints a usage error and a hint to standard error.
    static func fail(_ message: String, hint: String) {
        Console.errorLines("zeropii: \(message)\n\(hint)")
    }
}
