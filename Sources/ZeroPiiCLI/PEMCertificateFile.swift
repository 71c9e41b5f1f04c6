import Foundation

/// Where a `--ca-file` that OpenSSL refused is broken: the first block that OpenSSL's way
/// of reading PEM cannot take, by the line it begins on. OpenSSL gives the verdict
/// (`CurlTransport.Options.certificateAuthoritiesLoad`); this only points at the block,
/// for the message, and finds nothing in a file whose fault it does not know.
///
/// The blocks are found as OpenSSL finds them: it reads lines of up to 254 bytes, less
/// the white space and bytes over 127 at their end; one that begins `-----BEGIN ` and ends
/// `-----` opens a block of the name between, and the next line that begins `-----END `
/// must be that name's end. A UTF-8 byte-order mark at the start is skipped, and text
/// outside the blocks, such as the comments of a system bundle, is left alone. Within a
/// block, header lines (`Proc-Type: …`, up to a blank line) are skipped, the rest must be
/// Base64, and a certificate block (`CERTIFICATE`, `TRUSTED CERTIFICATE`, `X509
/// CERTIFICATE`) must decode to the outline of a DER certificate: a SEQUENCE holding the
/// signed part, the signature's algorithm and the signature, each of the right type, with
/// every length inside consistent (OpenSSL ignores bytes after it).
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

    /// Whether the text names a certificate block anywhere: a file without one trusts no
    /// authority (a file of CRLs alone loads, and then verifies nothing).
    static func mentionsCertificate(_ text: Data) -> Bool {
        certificateNames.contains { text.range(of: Data(beginPrefix + $0 + dashes)) != nil }
    }

    /// The first block of the file's text that cannot be read, or nil when none is found.
    static func problem(in text: Data) -> Problem? {
        var lines = Lines(bytes: [UInt8](text))
        var certificates = 0
        while let line = lines.next() {
            guard line.full.count < 254, line.text.starts(with: beginPrefix), line.text.count >= beginPrefix.count + dashes.count,
                line.text.suffix(dashes.count).elementsEqual(dashes)
            else { continue }
            let blockLine = lines.number
            let name = line.text.dropFirst(beginPrefix.count).dropLast(dashes.count)
            var body: [UInt8] = []
            var ended = false
            var mayBeHeader = true
            while let inner = lines.next() {
                if inner.text.starts(with: endPrefix) {
                    ended = inner.text.elementsEqual(endPrefix + name + dashes)
                    break
                }
                if mayBeHeader, inner.text.contains(UInt8(ascii: ":")) { continue }
                mayBeHeader = false
                body += inner.text.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            }
            guard ended else { return .unended(line: blockLine) }
            guard let der = Data(base64Encoded: Data(body)) else { return .notBase64(line: blockLine) }
            guard certificateNames.contains(where: { name.elementsEqual($0) }) else { continue }
            certificates += 1
            guard isCertificateOutline([UInt8](der)[...]) else { return .notCertificate(line: blockLine) }
        }
        return certificates == 0 ? .noCertificate : nil
    }

    /// The lines of a file as OpenSSL reads them, numbered from 1, without copying them.
    private struct Lines {
        let bytes: [UInt8]
        private var position = 0
        private(set) var number = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }

        /// The next line: all of it (without its line feed), and its text without the white
        /// space and bytes over 127 at its end.
        mutating func next() -> (full: ArraySlice<UInt8>, text: ArraySlice<UInt8>)? {
            guard position < bytes.count else { return nil }
            let start = position
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            position = end + 1
            number += 1
            var textEnd = end
            while textEnd > start, bytes[textEnd - 1] <= UInt8(ascii: " ") || bytes[textEnd - 1] > 127 { textEnd -= 1 }
            return (bytes[start..<end], bytes[start..<textEnd])
        }
    }

    private static let beginPrefix = Array("-----BEGIN ".utf8)
    private static let endPrefix = Array("-----END ".utf8)
    private static let dashes = Array("-----".utf8)
    /// The names OpenSSL reads as certificates in a file of authorities.
    private static let certificateNames = ["CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CERTIFICATE"].map { Array($0.utf8) }

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
