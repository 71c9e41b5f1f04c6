import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiTransport

@testable import ZeroPiiCLI

/// The `--ca-file` check. OpenSSL's verdict, as the transport asks it
/// (`CurlTransport.Options.certificateAuthoritiesLoad`), is libcurl's for every file here
/// (`openSSLsVerdictIsTheTransfersOwn`); of a refused file, ``PEMCertificateFile`` names
/// the block at fault, by the line it begins on, where it can tell, and it finds nothing
/// in a file that OpenSSL takes.
struct PEMCertificateFileTests {
    /// A self-signed P-256 certificate made for these tests with Python's `cryptography`.
    static let certificate = """
        -----BEGIN CERTIFICATE-----
        MIIBNTCB3KADAgECAgEBMAoGCCqGSM49BAMCMBoxGDAWBgNVBAMMD1plcm9QaWkg
        dGVzdCBDQTAeFw0yNjAxMDEwMDAwMDBaFw0zNTEyMzAwMDAwMDBaMBoxGDAWBgNV
        BAMMD1plcm9QaWkgdGVzdCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABJbA
        R7fUiJgfIIoXbY8Q9E+xFne5IZno/ijW+Q9QIRTpJbCzLi2/O02oAbSvxV3bailu
        KrgTkD/vhwJht+57w2SjEzARMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwID
        SAAwRQIgBjHx2CCsCoP86STA+j7ANE6WMBX/Qf0BH6N5qGeag5gCIQCIYQMPwXwM
        uITIedf+d+uRX+ijkBjfmW2zuZn8TjoICw==
        -----END CERTIFICATE-----

        """

    /// An EC key encrypted the traditional way (`openssl ec -aes128`): a block with headers.
    static let encryptedKey = """
        -----BEGIN EC PRIVATE KEY-----
        Proc-Type: 4,ENCRYPTED
        DEK-Info: AES-128-CBC,781D387F3DF400A44D61693EAFCD4E9F

        oxgsslzSeQQLfB4EAqmw7DJholQmMFFCL8aU5O1Sib/C/Acsy/xLcUGVl7IvAh6K
        6vEkCOvTwPZloSj+NrHnmjOGvoL+415iXDpvMe/B4L6esGHCkNgw4hOZSCtYWiAd
        EEvr4QYuo7TWjcISmiboxmdjnGalxqUVbkps2hzkCBo=
        -----END EC PRIVATE KEY-----

        """

    static func block(_ der: Data) -> String {
        "-----BEGIN CERTIFICATE-----\n" + der.base64EncodedString(options: .lineLength64Characters) + "\n-----END CERTIFICATE-----\n"
    }

    static var certificateDER: Data {
        let body = certificate.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return Data(base64Encoded: body)!
    }

    /// Files that OpenSSL takes, by name; with the system's bundle of authorities, where
    /// there is one.
    static let takenFiles: [(name: String, text: String)] =
        [
            ("one certificate", certificate),
            ("two, with a system bundle's comments around them", "# ZeroPii test CA\n" + certificate + "\n# again\n" + certificate),
            ("CRLF line endings", certificate.replacingOccurrences(of: "\n", with: "\r\n")),
            // OpenSSL reads the first DER element and ignores what follows it.
            ("a byte after the certificate's DER", block(certificateDER + Data([0]))),
            // Not a block to OpenSSL (its BEGIN line is over 254 bytes), so it is text beside the first.
            ("a block written on one line after a certificate", certificate + block(certificateDER).replacingOccurrences(of: "\n", with: "") + "\n"),
            ("white space after the BEGIN and END lines", certificate.replacingOccurrences(of: "-----\n", with: "-----  \t\n")),
            // Not a block to OpenSSL: its line does not begin with the dashes.
            ("an indented block after a certificate", certificate + " " + block(Data([0x30, 0x00]))),
            ("a trusted certificate", certificate.replacingOccurrences(of: " CERTIFICATE-----", with: " TRUSTED CERTIFICATE-----")),
            // Found from outside: these three were refused up front, and OpenSSL takes them.
            ("a UTF-8 byte-order mark first", "\u{FEFF}" + certificate),
            ("an encrypted key after a certificate", certificate + encryptedKey),
            ("no-break spaces at the ends of lines", certificate.replacingOccurrences(of: "\n", with: "\u{A0}\n")),
        ]
        + ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"].compactMap { path in
            (try? String(contentsOfFile: path, encoding: .utf8)).map { ("the system's bundle, \(path)", $0) }
        }

    /// By name: the test log shows each case's arguments, and a bundle is 200 KB.
    @Test(arguments: takenFiles.map(\.name))
    func aFileOpenSSLTakesPasses(name: String) throws {
        let text = try #require(Self.takenFiles.first { $0.name == name }?.text)
        #expect(PEMCertificateFile.problem(in: Data(text.utf8)) == nil)
    }

    /// Files that OpenSSL refuses, each with the problem found (nil: a fault the check does
    /// not know).
    static let refusedFiles: [(text: String, problem: PEMCertificateFile.Problem?)] = {
        let lines = Self.certificate.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var badCharacter = lines
        badCharacter[4] = String(badCharacter[4].prefix(5)) + "!" + badCharacter[4].dropFirst(6)
        var flippedLength = [UInt8](Self.certificateDER)
        flippedLength[3] ^= 0x01
        // The version's [0] (bytes 7 and 8, after the certificate's and the signed part's
        // headers) made one byte longer than what it holds.
        var innerLength = [UInt8](Self.certificateDER)
        innerLength[8] += 1
        let garbage = Data(String(repeating: "hello world garbage", count: 5).utf8)
        return [
            ("", .noCertificate),
            ("not a certificate\n", .noCertificate),
            (Self.block(Self.certificateDER).replacingOccurrences(of: "\n", with: "") + "\n", .noCertificate),
            // A block of any kind without its end, or with another's end, or not Base64,
            // makes OpenSSL refuse the file.
            ("-----BEGIN TRUSTED CERTIFICATE-----\n", .unended(line: 1)),
            (Self.certificate + "-----BEGIN X509 CRL-----\nMIIB\n", .unended(line: 10)),
            (Self.certificate + Self.certificate.replacingOccurrences(of: "END CERTIFICATE", with: "END X509 CRL"), .unended(line: 10)),
            (Self.certificate + "-----BEGIN FOO-----\n!!!!\n-----END FOO-----\n", .notBase64(line: 10)),
            (badCharacter.joined(separator: "\n"), .notBase64(line: 1)),
            (Self.certificate + Self.block(garbage), .notCertificate(line: 10)),
            (Self.block(garbage) + Self.certificate, .notCertificate(line: 1)),
            (Self.certificate + "-----BEGIN CERTIFICATE-----\nMIIB\n", .unended(line: 10)),
            (Self.block(Data(flippedLength)), .notCertificate(line: 1)),
            (Self.block(Data(innerLength)), .notCertificate(line: 1)),
            (Self.block(Self.certificateDER.dropLast()), .notCertificate(line: 1)),
            (Self.block(Data()), .notCertificate(line: 1)),
            // A length that claims more than 4 bytes of its own, or more than is there.
            (Self.block(Data([0x30, 0x85, 1, 0, 0, 0, 0])), .notCertificate(line: 1)),
            (Self.block(Data([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff])), .notCertificate(line: 1)),
            // Found from outside: refused by OpenSSL for reasons of its PEM reading.
            (Self.certificate.replacingOccurrences(of: "KrgTkD", with: "\nKrgTkD"), nil),
            (Self.certificate + "-----BEGIN X509 CRL-----\nMAMCAQU=\n-----END X509 CRL-----\n", nil),
            // A DER SEQUENCE of three elements of the wrong types.
            (Self.block(Data([0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00])), .notCertificate(line: 1)),
        ]
    }()

    @Test func eachKindOfBrokenBlockIsNamedByItsLine() {
        for (text, problem) in Self.refusedFiles {
            #expect(PEMCertificateFile.problem(in: Data(text.utf8)) == problem, "\(text.prefix(80))")
        }
    }

    /// Every file above, after the test server's own authority, given to libcurl as its CA
    /// file: the transfer reaches the server exactly when OpenSSL's verdict is that it reads
    /// the file, and fails with curl 77 otherwise; the check finds a problem only in files
    /// OpenSSL refuses.
    @Test(.enabled(if: TLSTestServer.canRun, "python3 with the cryptography package is not available"))
    func openSSLsVerdictIsTheTransfersOwn() async throws {
        #if os(Linux)
        let server = try TLSTestServer()
        defer { server.stop() }
        let authority = try String(contentsOfFile: server.certificateAuthorityFile, encoding: .utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zeropii-pem-\(UUID().uuidString).pem")
        defer { try? FileManager.default.removeItem(at: file) }
        let texts = Self.takenFiles.map(\.text) + Self.refusedFiles.map(\.text)
        for text in texts {
            let bundle = authority + text
            try Data(bundle.utf8).write(to: file)
            var options = CurlTransport.Options()
            options.trustedCertificateAuthorities = file.path
            let verdict = CurlTransport.Options.certificateAuthoritiesLoad(from: file.path)
            guard let loads = verdict else {
                Issue.record("libcurl here is not built on OpenSSL")
                return
            }
            if loads { #expect(PEMCertificateFile.problem(in: Data(bundle.utf8)) == nil, "\(text.prefix(80))") }
            do {
                let response = try await CurlTransport(options: options).send(TransportRequest(method: "POST", url: server.url, timeout: 20))
                #expect(loads && response.statusCode == 200, "\(text.prefix(80))")
            } catch let error as TransportError {
                #expect(!loads && error.description == "the connection failed (curl 77)", "\(text.prefix(80)): \(error)")
            }
        }
        #endif
    }

    /// Found from outside: files of `TRUSTED CERTIFICATE` or `X509 CERTIFICATE` blocks alone
    /// were refused up front as holding no certificate, and OpenSSL takes them.
    @Test func everyNameOfACertificateBlockCounts() {
        for name in ["CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CERTIFICATE"] {
            let text = Self.certificate.replacingOccurrences(of: " CERTIFICATE-----", with: " \(name)-----")
            #expect(PEMCertificateFile.mentionsCertificate(Data(text.utf8)), "\(name)")
        }
        let revocations = "-----BEGIN X509 CRL-----\nMAMCAQU=\n-----END X509 CRL-----\n"
        #expect(!PEMCertificateFile.mentionsCertificate(Data(revocations.utf8)))
        #expect(!PEMCertificateFile.mentionsCertificate(Data("-----BEGIN CERTIFICATE----".utf8)))
    }

    /// A bundle the size of a system's (150 certificates) is checked in one pass: lines
    /// are counted once, not once per block.
    @Test func aBundleOfManyCertificatesNamesTheLineOfItsLastBadBlock() {
        let bundle = String(repeating: "# an authority\n" + Self.certificate, count: 150) + "# the broken one\n" + Self.block(Data([0x30, 0x00]))
        #expect(PEMCertificateFile.problem(in: Data(bundle.utf8)) == .notCertificate(line: 150 * 10 + 2))
    }
}
