import Foundation
import Testing
import ZeroPiiCrypto
import ZeroPiiTestHelpers

struct AESGCMTests {
    @Test(arguments: PublishedGCMVectors.all)
    func publishedVectors(vector: GCMVector) throws {
        let key = SymmetricKey(data: [UInt8](hex: vector.key))
        let nonceBytes = [UInt8](hex: vector.nonce)
        if nonceBytes.count < 12 {
            // The 8-byte-nonce cases: the public API refuses nonces shorter than 12 bytes
            // (as swift-crypto does); the engine below it must still give the known answer.
            #expect(throws: CryptoError.incorrectParameterSize) { try AES.GCM.Nonce(data: nonceBytes) }
            let sealed = try GCMEngineReference.seal(
                key: [UInt8](hex: vector.key), nonce: nonceBytes, aad: [UInt8](hex: vector.aad), plaintext: [UInt8](hex: vector.plaintext))
            #expect(sealed.ciphertext.hex == vector.ciphertext)
            #expect(sealed.tag.hex == vector.tag)
            return
        }
        let nonce = try AES.GCM.Nonce(data: nonceBytes)
        let box = try AES.GCM.seal([UInt8](hex: vector.plaintext), using: key, nonce: nonce, authenticating: [UInt8](hex: vector.aad))
        #expect(box.ciphertext.hex == vector.ciphertext)
        #expect(box.tag.hex == vector.tag)
        #expect(try AES.GCM.open(box, using: key, authenticating: [UInt8](hex: vector.aad)).hex == vector.plaintext)
    }

    @Test func combinedFormRoundTrips() throws {
        let key = SymmetricKey(size: .bits256)
        let box = try AES.GCM.seal(Data("hello".utf8), using: key, authenticating: Data("context".utf8))
        let combined = try #require(box.combined)
        #expect(combined.count == 12 + 5 + 16)
        #expect(Array(combined.prefix(12)) == Array(box.nonce))
        let reopened = try AES.GCM.SealedBox(combined: combined)
        #expect(try AES.GCM.open(reopened, using: key, authenticating: Data("context".utf8)) == Data("hello".utf8))
    }

    @Test func emptyPlaintextAndEmptyAssociatedData() throws {
        let key = SymmetricKey(size: .bits128)
        let box = try AES.GCM.seal(Data(), using: key)
        #expect(box.ciphertext.isEmpty)
        #expect(box.tag.count == 16)
        #expect(try AES.GCM.open(box, using: key).isEmpty)
        // The tag still authenticates: a different key or some associated data fails.
        #expect(throws: CryptoError.authenticationFailure) { try AES.GCM.open(box, using: SymmetricKey(size: .bits128)) }
        #expect(throws: CryptoError.authenticationFailure) { try AES.GCM.open(box, using: key, authenticating: Data([0])) }
    }

    @Test func everyFlippedTagBitIsRejected() throws {
        let key = SymmetricKey(size: .bits256)
        let box = try AES.GCM.seal(Data("attack at dawn".utf8), using: key, authenticating: Data("aad".utf8))
        for bit in 0..<128 {
            var tag = [UInt8](box.tag)
            tag[bit / 8] ^= 1 << (bit % 8)
            let tampered = try AES.GCM.SealedBox(nonce: box.nonce, ciphertext: box.ciphertext, tag: tag)
            #expect(throws: CryptoError.authenticationFailure) {
                try AES.GCM.open(tampered, using: key, authenticating: Data("aad".utf8))
            }
        }
    }

    @Test func everyFlippedCiphertextNonceAndAssociatedDataBitIsRejected() throws {
        let key = SymmetricKey(size: .bits256)
        let aad = [UInt8]("aad".utf8)
        let box = try AES.GCM.seal(Data("attack at dawn".utf8), using: key, authenticating: aad)
        for bit in 0..<(box.ciphertext.count * 8) {
            var ciphertext = [UInt8](box.ciphertext)
            ciphertext[bit / 8] ^= 1 << (bit % 8)
            let tampered = try AES.GCM.SealedBox(nonce: box.nonce, ciphertext: ciphertext, tag: box.tag)
            #expect(throws: CryptoError.authenticationFailure) { try AES.GCM.open(tampered, using: key, authenticating: aad) }
        }
        for bit in 0..<96 {
            var nonce = [UInt8](box.nonce)
            nonce[bit / 8] ^= 1 << (bit % 8)
            let tampered = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: box.ciphertext, tag: box.tag)
            #expect(throws: CryptoError.authenticationFailure) { try AES.GCM.open(tampered, using: key, authenticating: aad) }
        }
        for bit in 0..<(aad.count * 8) {
            var changed = aad
            changed[bit / 8] ^= 1 << (bit % 8)
            #expect(throws: CryptoError.authenticationFailure) { try AES.GCM.open(box, using: key, authenticating: changed) }
        }
    }

    @Test(arguments: [0, 1, 8, 15, 17, 23, 31, 33, 64, 128])
    func wrongKeySizesThrow(byteCount: Int) throws {
        let key = SymmetricKey(data: [UInt8](repeating: 1, count: byteCount))
        #expect(throws: CryptoError.incorrectKeySize) { try AES.GCM.seal(Data("x".utf8), using: key) }
        let box = try AES.GCM.seal(Data("x".utf8), using: SymmetricKey(size: .bits128))
        #expect(throws: CryptoError.incorrectKeySize) { try AES.GCM.open(box, using: key) }
    }

    @Test func malformedParametersThrow() throws {
        #expect(throws: CryptoError.incorrectParameterSize) { try AES.GCM.Nonce(data: Data()) }
        // Shorter than 12 bytes is refused, as swift-crypto refuses it; 12 and more is fine.
        for count in [1, 8, 11] {
            #expect(throws: CryptoError.incorrectParameterSize) { try AES.GCM.Nonce(data: Data(count: count)) }
        }
        #expect(Array(try AES.GCM.Nonce(data: Data(count: 12))).count == 12)
        #expect(Array(try AES.GCM.Nonce(data: Data(count: 13))).count == 13)
        for count in [0, 1, 12, 27] {
            #expect(throws: CryptoError.incorrectParameterSize) { try AES.GCM.SealedBox(combined: Data(count: count)) }
        }
        let minimal = try AES.GCM.SealedBox(combined: Data(count: 28))
        #expect(minimal.ciphertext.isEmpty)
        #expect(minimal.tag.count == 16)
        for tagCount in [0, 12, 15, 17] {
            #expect(throws: CryptoError.incorrectParameterSize) {
                try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(), ciphertext: Data(), tag: Data(count: tagCount))
            }
        }
    }

    @Test func nonStandardNonceLengthsRoundTripButHaveNoCombinedForm() throws {
        let key = SymmetricKey(size: .bits256)
        for length in [13, 16, 60, 257] {
            let nonce = try AES.GCM.Nonce(data: [UInt8](repeating: UInt8(truncatingIfNeeded: length), count: length))
            let box = try AES.GCM.seal(Data("value".utf8), using: key, nonce: nonce)
            #expect(box.combined == nil)
            #expect(try AES.GCM.open(box, using: key) == Data("value".utf8))
        }
    }

    @Test func randomNoncesDiffer() {
        let nonces = Set((0..<1000).map { _ in AES.GCM.Nonce() })
        #expect(nonces.count == 1000)
        #expect(nonces.allSatisfy { Array($0).count == 12 })
    }

    @Test func everyLengthAroundBlockAndBatchBoundariesRoundTrips() throws {
        var generator = SplitMix64(seed: 7)
        for keySize in [SymmetricKeySize.bits128, .bits192, .bits256] {
            let key = SymmetricKey(data: generator.bytes(keySize.bitCount / 8))
            for length in Array(0...130) + [255, 256, 257, 1023, 1024, 1025] {
                let message = generator.bytes(length)
                let aad = generator.bytes(length % 37)
                let box = try AES.GCM.seal(message, using: key, authenticating: aad)
                #expect(box.ciphertext.count == length)
                #expect(try AES.GCM.open(box, using: key, authenticating: aad) == Data(message))
            }
        }
    }

    @Test func keysAndDataTypesAreInterchangeable() throws {
        let keyBytes = [UInt8](repeating: 9, count: 32)
        let nonce = try AES.GCM.Nonce(data: [UInt8](repeating: 3, count: 12))
        let fromArray = try AES.GCM.seal([UInt8]("same".utf8), using: SymmetricKey(data: keyBytes), nonce: nonce)
        let fromData = try AES.GCM.seal(Data("same".utf8), using: SymmetricKey(data: Data(keyBytes)), nonce: nonce)
        let fromSlice = try AES.GCM.seal(Data("xsamex".utf8).dropFirst().dropLast(), using: SymmetricKey(data: keyBytes), nonce: nonce)
        #expect(fromArray.ciphertext == fromData.ciphertext && fromArray.tag == fromData.tag)
        #expect(fromSlice.ciphertext == fromData.ciphertext && fromSlice.tag == fromData.tag)
        #expect(SymmetricKey(data: keyBytes) == SymmetricKey(data: Data(keyBytes)))
        #expect(SymmetricKey(data: keyBytes) != SymmetricKey(size: .bits256))
        #expect(!SymmetricKey(data: keyBytes).description.contains("09"))
    }
}
