import Foundation
import ZeroPiiTransport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Network failures and URLs in words a person can act on.
enum NetworkFailureText {
    /// What went wrong, for the URL errors people meet first.
    static func describe(_ code: URLError.Code) -> String {
        switch code {
        case .cannotConnectToHost: return "connection refused"
        case .timedOut: return "timed out"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .networkConnectionLost: return "the connection was lost"
        case .notConnectedToInternet: return "no network connection"
        case .secureConnectionFailed: return "the TLS handshake failed"
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "the server's TLS certificate is not trusted"
        case .badURL, .unsupportedURL: return "the URL cannot be used"
        case .badServerResponse, .cannotParseResponse: return "the answer was not HTTP"
        case .zeroByteResource: return "the server closed the connection without an answer"
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return "the server's redirects lead nowhere"
        case .cancelled: return "the request was cancelled"
        case .dataLengthExceedsMaximum: return "the answer was too long"
        // FoundationNetworking reports a connection that libcurl gave up on for reasons
        // it does not map (a reset, a peer that closed mid-answer) as -1.
        case .unknown: return "the connection failed (reset or closed by the server, or a local network error)"
        default: return "network error \(code.rawValue)"
        }
    }

    /// What went wrong, for libcurl's error numbers (the curl transport's `curl N`).
    static func describe(curlCode code: Int) -> String {
        switch code {
        // 1 is also a URL scheme libcurl may not speak, but the SDK sends http and https
        // only; what reaches it is an answer that is not HTTP/1.x or HTTP/2.
        case 1, 8: return "the answer was not HTTP"
        case 3: return "the URL cannot be used"
        case 5: return "proxy not found"
        case 6: return "host not found"
        case 7: return "connection refused"
        case 18: return "the answer ended early"
        case 27: return "the answer was too long"
        case 28: return "timed out"
        case 35:
            return "the TLS handshake failed (a dropped connection, a server that does not speak TLS there, "
                + "or a certificate that the --ca-file's authority did not sign)"
        case 52: return "the server closed the connection without an answer"
        case 55, 56: return "the connection was lost, or the answer broke HTTP's framing"
        case 60:
            return "the server's TLS certificate could not be verified (expired, for another name, or from an authority "
                + "not trusted here; for an authority of your own, see --ca-file)"
        case 61: return "the answer's encoding cannot be decoded"
        case 77: return "the --ca-file could not be used"
        case 90: return "the server's public key is not the pinned one (check --pinned-key)"
        case 97: return "the proxy failed"
        default: return "network error (libcurl \(code))"
        }
    }

    /// The curl transport's own phrases in words.
    private static let curlPhrases = [
        "the connection failed (curl response too large)": "the answer was too long",
        "the connection failed (curl incomplete response)": "the connection closed in the middle of the answer's headers",
        "the connection failed (curl switched protocols)": "the server answered 101 Switching Protocols, which was not asked for",
        "the connection failed (curl unclear content length)": "the answer's Content-Length is not one number, so its end cannot be known",
        "the connection failed (invalid header field)": "a request header holds a line break or an invalid name",
    ]

    private static func describeCurlPhrase(in message: String) -> String? {
        for (phrase, words) in curlPhrases where message.contains(phrase) {
            return message.replacingOccurrences(of: phrase, with: words)
        }
        return nil
    }

    /// Any error from a transport or a URLSession call, in words.
    static func describe(_ error: Error) -> String {
        if let transportError = error as? TransportError {
            if transportError == .timedOut { return "timed out" }
            if let code = transportError.curlCode { return describe(curlCode: code) }
            let message = transportError.descriptionForMessages
            return describeCurlPhrase(in: message) ?? message
        }
        if let urlError = error as? URLError { return describe(urlError.code) }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain { return describe(code: nsError.code) }
        return "the request failed"
    }

    /// The SDK's failure message with a transport's error number ("the connection
    /// failed (curl 7)", "(URLError -1004)") put in words ("connection refused").
    static func describe(_ message: String) -> String {
        if let described = describeCurlPhrase(in: message) { return described }
        if let range = message.range(of: #"the connection failed \(curl [0-9]+\)"#, options: .regularExpression),
            let code = Int(message[range].filter(\.isNumber))
        {
            return message.replacingCharacters(in: range, with: describe(curlCode: code))
        }
        guard let range = message.range(of: #"the connection failed \(URLError -?[0-9]+\)"#, options: .regularExpression) else {
            return message
        }
        let number = message[range].filter { $0 == "-" || $0.isNumber }
        guard let code = Int(number) else { return message }
        return message.replacingCharacters(in: range, with: describe(code: code))
    }

    /// Whether the SDK's failure message names a transport failure that sending again
    /// cannot change (a certificate, a pin, an unusable URL: ``TransportError/isPermanent``).
    static func isPermanent(_ message: String) -> Bool {
        guard let range = message.range(of: #"the connection failed \([^()]+\)$"#, options: .regularExpression) else { return false }
        let detail = message[range].dropFirst("the connection failed (".count).dropLast()
        return TransportError.connectionFailed(detail: String(detail)).isPermanent
    }

    /// A URL error number in words.
    static func describe(code: Int) -> String {
        // Optional on Linux, not on Apple platforms.
        let known: URLError.Code? = URLError.Code(rawValue: code)
        return known.map { describe($0) } ?? "network error \(code)"
    }

    /// The URL without what may be a secret (user, password, query, fragment).
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the given URL" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "the given URL"
    }

    /// The URL text without what may be a secret.
    static func redacted(_ text: String) -> String {
        URL(string: text).map { redacted($0) } ?? "the given URL"
    }
}
