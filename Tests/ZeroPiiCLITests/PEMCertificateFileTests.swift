import Foundation
import Testing
import ZeroPiiTestHelpers
import ZeroPiiTransport

@testable import ZeroPiiCLI

/// The `--ca-file` check: a file OpenSSL takes passes, and a file it refuses whole (curl
/// error 77) names the block, by the line it begins on. `theCheckAgreesWithOpenSSL` holds
/// every case against OpenSSL, through libcurl.
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

    /// Files that OpenSSL refuses, each with the problem found.
    static let refusedFiles: [(text: String, problem: PEMCertificateFile.Problem)] = {
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
            // A DER SEQUENCE of three elements of the wrong types.
            (Self.block(Data([0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00])), .notCertificate(line: 1)),
        ]
    }()

    @Test func eachKindOfBrokenBlockIsNamedByItsLine() {
        for (text, problem) in Self.refusedFiles {
            #expect(PEMCertificateFile.problem(in: Data(text.utf8)) == problem, "\(text.prefix(80))")
        }
    }

    /// Every file above, after the test server's own authority, given to libcurl (OpenSSL)
    /// as its CA file: it reaches the server exactly when the check finds no problem, and
    /// refuses the file (curl 77) otherwise.
    @Test(.enabled(if: TLSTestServer.canRun, "python3 with the cryptography package is not available"))
    func theCheckAgreesWithOpenSSL() async throws {
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
            let problem = PEMCertificateFile.problem(in: Data(bundle.utf8))
            do {
                let response = try await CurlTransport(options: options).send(TransportRequest(method: "POST", url: server.url, timeout: 20))
                #expect(problem == nil && response.statusCode == 200, "\(text.prefix(80))")
            } catch let error as TransportError {
                #expect(problem != nil && error.description == "the connection failed (curl 77)", "\(text.prefix(80)): \(error)")
            }
        }
        #endif
    }

    /// A bundle the size of a system's (150 certificates) is checked in one pass: lines
    /// are counted once, not once per block.
    @Test func aBundleOfManyCertificatesNamesTheLineOfItsLastBadBlock() {
        let bundle = String(repeating: "# an authority\n" + Self.certificate, count: 150) + "# the broken one\n" + Self.block(Data([0x30, 0x00]))
        #expect(PEMCertificateFile.problem(in: Data(bundle.utf8)) == .notCertificate(line: 150 * 10 + 2))
    }
}
