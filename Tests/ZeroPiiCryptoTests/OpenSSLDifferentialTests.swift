import Foundation
import Testing
import ZeroPiiCrypto

/// AES-GCM against OpenSSL on thousands of random cases: random key sizes, nonces
/// (mostly 12 bytes, some of other lengths), associated data and message lengths from
/// 0 to 4100 bytes. OpenSSL's output must open here, and sealing here must reproduce
/// OpenSSL's ciphertext and tag byte for byte.
///
/// The cases come from `Scripts/gcm_reference.py` through Python's `cryptography`
/// package. `.ci/run` sets `ZEROPII_DIFFERENTIAL=required`, which turns a missing
/// Python or package into a failure instead of a skipped test.
@Suite(.enabled(if: OpenSSLReference.shouldRun, "python3 with the cryptography package is not available"))
struct OpenSSLDifferentialTests {
    @Test func thousandsOfRandomCasesAgreeWithOpenSSL() throws {
        let lines = try OpenSSLReference.cases(seed: 20_261_130, count: 3000)
        #expect(lines.count == 3000)
        var mismatches: [Int] = []
        var nonStandardNonces = 0
        var shortNonces = 0
        var maximumLength = 0
        for (index, line) in lines.enumerated() {
            let fields = line.split(separator: " ").map { $0 == "-" ? [UInt8]() : [UInt8](hex: String($0)) }
            try #require(fields.count == 6, "malformed reference line \(index)")
            let (key, nonceBytes, aad, plaintext, ciphertext, tag) = (fields[0], fields[1], fields[2], fields[3], fields[4], fields[5])
            if nonceBytes.count != 12 { nonStandardNonces += 1 }
            maximumLength = max(maximumLength, plaintext.count)

            if nonceBytes.count < 12 {
                // The public API refuses nonces shorter than 12 bytes (as swift-crypto
                // does); the engine below it must still agree with OpenSSL on them.
                shortNonces += 1
                let refused = (try? AES.GCM.Nonce(data: nonceBytes)) == nil
                let sealed = try GCMEngineReference.seal(key: key, nonce: nonceBytes, aad: aad, plaintext: plaintext)
                let opened = try? GCMEngineReference.open(key: key, nonce: nonceBytes, aad: aad, ciphertext: ciphertext, tag: tag)
                if !refused || opened != plaintext || sealed.ciphertext != ciphertext || sealed.tag != tag { mismatches.append(index) }
                continue
            }
            let symmetricKey = SymmetricKey(data: key)
            let nonce = try AES.GCM.Nonce(data: nonceBytes)
            let reference = try AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
            let opened = try? AES.GCM.open(reference, using: symmetricKey, authenticating: aad)
            let sealed = try AES.GCM.seal(plaintext, using: symmetricKey, nonce: nonce, authenticating: aad)
            if opened != Data(plaintext) || sealed.ciphertext != Data(ciphertext) || sealed.tag != Data(tag) {
                mismatches.append(index)
            }
        }
        #expect(mismatches == [], "cases (line numbers) where ZeroPiiCrypto and OpenSSL disagree")
        #expect(nonStandardNonces > 100)
        #expect(shortNonces > 10)
        #expect(maximumLength > 4000)
    }

    /// Long messages and associated data: GHASH's four-block aggregation (512 bytes and
    /// more) and counter mode's bit planes rebuilt each time the counter's upper bytes
    /// change (every 4 KB), many times per message. 12-byte nonces, the SDK's case.
    @Test func longMessagesAgreeWithOpenSSL() throws {
        let lines = try OpenSSLReference.cases(seed: 20_261_202, count: 24, maximumTextLength: 160_000, maximumAssociatedDataLength: 3000)
        #expect(lines.count == 24)
        var checked = 0
        var longest = 0
        for line in lines {
            let fields = line.split(separator: " ").map { $0 == "-" ? [UInt8]() : [UInt8](hex: String($0)) }
            try #require(fields.count == 6)
            let (key, nonceBytes, aad, plaintext, ciphertext, tag) = (fields[0], fields[1], fields[2], fields[3], fields[4], fields[5])
            guard nonceBytes.count == 12 else { continue }
            let symmetricKey = SymmetricKey(data: key)
            let nonce = try AES.GCM.Nonce(data: nonceBytes)
            let sealed = try AES.GCM.seal(plaintext, using: symmetricKey, nonce: nonce, authenticating: aad)
            #expect(sealed.ciphertext == Data(ciphertext) && sealed.tag == Data(tag), "\(plaintext.count) bytes, \(aad.count) of AAD")
            let opened = try AES.GCM.open(AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag), using: symmetricKey, authenticating: aad)
            #expect(opened == Data(plaintext))
            checked += 1
            longest = max(longest, plaintext.count)
        }
        #expect(checked > 15)
        #expect(longest > 120_000)
    }
}

enum OpenSSLReference {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static var script: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/gcm_reference.py")
    }

    static var shouldRun: Bool {
        if ProcessInfo.processInfo.environment["ZEROPII_DIFFERENTIAL"] == "required" { return true }
        return (try? run(["-c", "import cryptography"])) != nil
    }

    static func cases(seed: Int, count: Int, maximumTextLength: Int = 4100, maximumAssociatedDataLength: Int = 100) throws -> [Substring] {
        let output = try run([script.path, String(seed), String(count), String(maximumTextLength), String(maximumAssociatedDataLength)])
        return String(decoding: output, as: UTF8.self).split(separator: "\n")
    }

    private static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 \(arguments.first ?? "") exited with status \(process.terminationStatus)")
        }
        return output
    }
}
