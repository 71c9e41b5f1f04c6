import Foundation

/// The check of a `--ca-file` before a run: every PEM block of the file must be whole and
/// Base64, and every certificate block must decode to a certificate. OpenSSL, under
/// libcurl, reads the whole file and refuses all of it for one bad block (curl error 77),
/// so a run with such a file would fail value by value; this says which block, by its
/// line, before anything is sent.
///
/// The blocks are found as OpenSSL finds them: it reads lines of up to 254 bytes, trailing
/// white space aside; one that begins `-----BEGIN ` and ends `-----` opens a block of the
/// name between, and the next line that begins `-----END ` must be that name's end. Text
/// outside the blocks, such as the comments of a system bundle, is left alone, as OpenSSL
/// leaves it. A certificate block (`CERTIFICATE`, `TRUSTED CERTIFICATE`, `X509
/// CERTIFICATE`) must decode to the outline of a DER certificate: a SEQUENCE holding the
/// signed part, the signature's algorithm and the signature, each of the right type, with
/// every length inside consistent (OpenSSL ignores bytes after it). Whether the values
/// inside are valid, and whether a certificate verifies the server, is OpenSSL's to say.
enum PEMCertificateFile {
    enum Problem: Equatable {
        /// No certificate block at all.
        case noCertificate
        /// The block that begins on this line has no `-----END ` line of its name.
        case unended(line: Int)
        /// The block that begins on this line is not Base64.
        case notBase64(line: Int)
        /// The certificate block that begins on this line decodes to something other than
        /// a certificate.
        case notCertificate(line: Int)
    }

    /// The first problem of the file's text, or nil when every block is whole and Base64
    /// and every certificate decodes.
    static func problem(in text: Data) -> Problem? {
        var lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
        var lineNumber = 0
        var certificates = 0
        while let rawLine = lines.popFirst() {
            lineNumber += 1
            let line = withoutTrailingWhiteSpace(rawLine)
            guard rawLine.count < 254, line.starts(with: beginPrefix), line.count >= beginPrefix.count + dashes.count,
                line.suffix(dashes.count).elementsEqual(dashes)
            else { continue }
            let blockLine = lineNumber
            let name = line.dropFirst(beginPrefix.count).dropLast(dashes.count)
            var body = Data()
            var ended = false
            while let rawInner = lines.popFirst() {
                lineNumber += 1
                let inner = withoutTrailingWhiteSpace(rawInner)
                if inner.starts(with: endPrefix) {
                    ended = inner.elementsEqual(endPrefix + name + dashes)
                    break
                }
                body += inner.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            }
            guard ended else { return .unended(line: blockLine) }
            guard let der = Data(base64Encoded: body) else { return .notBase64(line: blockLine) }
            guard certificateNames.contains(where: { name.elementsEqual($0) }) else { continue }
            certificates += 1
            guard isCertificateOutline([UInt8](der)[...]) else { return .notCertificate(line: blockLine) }
        }
        return certificates == 0 ? .noCertificate : nil
    }

    private static let beginPrefix = Array("-----BEGIN ".utf8)
    private static let endPrefix = Array("-----END ".utf8)
    private static let dashes = Array("-----".utf8)
    /// The names OpenSSL reads as certificates in a file of authorities.
    private static let certificateNames = ["CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CERTIFICATE"].map { Array($0.utf8) }

    /// A line without the spaces, tabs, carriage returns and other control bytes at its end.
    private static func withoutTrailingWhiteSpace(_ line: Data) -> Data {
        var end = line.endIndex
        while end > line.startIndex, line[end - 1] <= UInt8(ascii: " ") { end -= 1 }
        return line[line.startIndex..<end]
    }

    /// A certificate's outline (RFC 5280, section 4.1): SEQUENCE { tbsCertificate SEQUENCE,
    /// signatureAlgorithm SEQUENCE, signatureValue BIT STRING }, in which every constructed
    /// element is exactly filled by the elements within it.
    private static func isCertificateOutline(_ der: ArraySlice<UInt8>) -> Bool {
        guard let certificate = element(der), certificate.tag == sequence,
            let signed = element(certificate.content), signed.tag == sequence,
            let algorithm = element(signed.rest), algorithm.tag == sequence,
            let signature = element(algorithm.rest), signature.tag == bitString, signature.rest.isEmpty
        else { return false }
        return isFilledByElements(certificate.content, depth: 1)
    }

    /// Whether `bytes` are whole elements, and so, in turn, the content of every constructed
    /// one among them, to a depth no certificate reaches (32).
    private static func isFilledByElements(_ bytes: ArraySlice<UInt8>, depth: Int) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            guard depth < 32, let next = element(rest) else { return false }
            if next.tag & constructed != 0, !isFilledByElements(next.content, depth: depth + 1) { return false }
            rest = next.rest
        }
        return true
    }

    private static let constructed: UInt8 = 0x20

    private static let sequence: UInt8 = 0x30
    private static let bitString: UInt8 = 0x03

    /// One DER element (one-byte tag, definite length of up to 4 bytes) at the start of
    /// `bytes`: its tag, its content, and the bytes after it; nil when it does not fit.
    private static func element(_ bytes: ArraySlice<UInt8>) -> (tag: UInt8, content: ArraySlice<UInt8>, rest: ArraySlice<UInt8>)? {
        var index = bytes.startIndex
        guard bytes.endIndex - index >= 2 else { return nil }
        let tag = bytes[index]
        var length = Int(bytes[index + 1])
        index += 2
        if length & 0x80 != 0 {
            let lengthBytes = length & 0x7f
            guard (1...4).contains(lengthBytes), bytes.endIndex - index >= lengthBytes else { return nil }
            length = bytes[index..<index + lengthBytes].reduce(0) { $0 << 8 | Int($1) }
            index += lengthBytes
        }
        guard bytes.endIndex - index >= length else { return nil }
        return (tag, bytes[index..<index + length], bytes[(index + length)...])
    }
}
