#if canImport(ZeroPiiCurlShim)
import Foundation
internal import ZeroPiiCurlShim

extension CurlTransport {
    /// How a ``CurlTransport`` connects.
    public struct Options: Sendable {
        /// The most connections open at once, to all hosts together, and the most kept
        /// open for reuse. Requests beyond it wait inside libcurl for a connection. The
        /// SDK sets it to `ZeroPiiConfiguration.maximumConcurrentRequests`. Default: 8.
        public var maximumConnections: Int = 8
        /// A PEM file of certificate authorities to verify servers against instead of
        /// the system's store (for example a company's own CA). Default: nil, the
        /// system's store.
        public var trustedCertificateAuthorities: String?
        /// Public keys the server's certificate must have one of, each as `sha256//`
        /// followed by the Base64 of the SHA-256 of its DER `SubjectPublicKeyInfo` (the
        /// form `curl --pinnedpubkey` takes). Checked in addition to the certificate
        /// chain. Default: none.
        public var pinnedPublicKeys: [String] = []
        /// The largest response body accepted, in bytes; a longer one ends the request
        /// with a `connectionFailed` error rather than filling memory. The responses being
        /// received at once hold at most four times this together; a request whose body
        /// would go beyond that fails the same way. Default: 64 MiB.
        public var maximumResponseBytes: Int = 64 << 20

        /// How many times ``maximumResponseBytes`` all responses in flight may hold.
        static let responseBudgetFactor = 4

        /// The defaults.
        public init() {}

        /// Whether `pin` is in the form libcurl matches: `sha256//` and the canonical Base64
        /// of a 32-byte digest. libcurl compares the text, so a key whose unused padding
        /// bits differ would decode to the same digest and still never match.
        package static func isPinnedPublicKey(_ pin: String) -> Bool {
            let prefix = "sha256//"
            let encoded = String(pin.dropFirst(prefix.count))
            guard pin.hasPrefix(prefix), let digest = Data(base64Encoded: encoded) else { return false }
            return digest.count == 32 && digest.base64EncodedString() == encoded
        }

        /// Whether OpenSSL, as libcurl uses it, reads the file at `path` as certificate
        /// authorities (a file it refuses fails every request with curl error 77); nil when
        /// that cannot be told: libcurl not loaded, or built on another TLS library. Reads
        /// the file, so `path` must not be a FIFO or a device.
        package static func certificateAuthoritiesLoad(from path: String) -> Bool? {
            switch zp_curl_ca_file_loads(path) {
            case 1: return true
            case 0: return false
            default: return nil
            }
        }

        /// Throws ``CurlTransportSetupError`` for options no transport can use: no room for
        /// a connection, a negative limit, a pin not in curl's form, an unreadable CA file.
        func validate() throws {
            guard maximumConnections >= 1 else {
                throw CurlTransportSetupError(reason: "maximumConnections must be at least 1")
            }
            guard maximumResponseBytes >= 0 else {
                throw CurlTransportSetupError(reason: "maximumResponseBytes must not be negative")
            }
            for pin in pinnedPublicKeys where !Self.isPinnedPublicKey(pin) {
                throw CurlTransportSetupError(reason: "a pinned public key is not sha256// followed by the Base64 of 32 bytes")
            }
            if let file = trustedCertificateAuthorities, !FileManager.default.isReadableFile(atPath: file) {
                throw CurlTransportSetupError(reason: "the trusted certificate authorities file cannot be read")
            }
        }
    }
}
#endif
