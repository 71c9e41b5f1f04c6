import Foundation
import Testing

@testable import ZeroPiiCrypto

/// Key material is wiped right after use: through the debug-build hook `Wipe.observer`,
/// each wiped buffer is seen just before and just after its wipe. Before, it must hold
/// the real secret (recomputed here through the public API); after, only zeros.
struct WipeTests {
    /// Collects the wipes of one test; the hook is task-local, so parallel tests never
    /// see each other's wipes.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [Wipe.Event] = []

        func record(_ event: Wipe.Event) {
            lock.lock()
            recorded.append(event)
            lock.unlock()
        }

        var events: [Wipe.Event] {
            lock.lock()
            defer { lock.unlock() }
            return recorded
        }

        func before(_ kind: Wipe.Kind) -> [[UInt8]] { events.filter { $0.kind == kind && $0.phase == .before }.map(\.bytes) }
    }

    private func observing(_ body: () throws -> Void) rethrows -> Recorder {
        let recorder = Recorder()
        try Wipe.$observer.withValue({ recorder.record($0) }) { try body() }
        return recorder
    }

    private static let token = "an-access-token-of-typical-length-0123456789"
    private static let salt = Data((0..<32).map { UInt8($0) })

    @Test func everyWipeLeavesOnlyZeros() throws {
        let recorder = try observing {
            let envelope = try PayloadEnvelope(
                accessToken: Self.token, operation: "tokenize", requestID: "rid", timestamp: 1, salt: Self.salt)
            let sealed = try envelope.sealRequest(Data("a personal value".utf8))
            #expect(try envelope.openRequest(sealed) == Data("a personal value".utf8))
            _ = HMAC<SHA256>.authenticationCode(for: Data("message".utf8), using: SymmetricKey(size: .bits256))
        }
        let events = recorder.events
        let kinds = Set(events.map(\.kind))
        let expected: Set<Wipe.Kind> = [
            .keyStorage, .roundKeys, .hkdfPseudoRandomKey, .hkdfOutputBlock, .hmacState, .hashState, .ghashKey, .keystream,
        ]
        #expect(expected.isSubset(of: kinds), "kinds of secret never wiped: \(expected.subtracting(kinds))")
        let afterWipes = events.filter { $0.phase == .after }
        #expect(afterWipes.count == events.count / 2)
        for event in afterWipes {
            #expect(event.bytes.allSatisfy { $0 == 0 }, "\(event.kind) still holds non-zero bytes after its wipe")
        }
    }

    @Test func theWipedBuffersHeldTheRealKeys() throws {
        let recorder = try observing {
            _ = try PayloadEnvelope(accessToken: Self.token, operation: "tokenize", requestID: "rid", timestamp: 1, salt: Self.salt)
        }
        // The envelope's key storage held K_req then K_resp, as the public HKDF derives them.
        let requestKey = try HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(Self.token.utf8)), salt: Self.salt, info: Data("zeropii/v1 request".utf8),
            outputByteCount: 32)
        let responseKey = try HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(Self.token.utf8)), salt: Self.salt, info: Data("zeropii/v1 response".utf8),
            outputByteCount: 32)
        let keyBytes = requestKey.withUnsafeBytes { Array($0) } + responseKey.withUnsafeBytes { Array($0) }
        #expect(recorder.before(.keyStorage).contains(keyBytes))
        // The pseudorandom key and the T(1) blocks (here the keys themselves) were wiped too.
        let pseudoRandomKey = Array(HKDF<SHA256>.extract(inputKeyMaterial: SymmetricKey(data: Data(Self.token.utf8)), salt: Self.salt))
        #expect(recorder.before(.hkdfPseudoRandomKey).contains(pseudoRandomKey))
        let outputBlocks = recorder.before(.hkdfOutputBlock)
        #expect(outputBlocks.contains(Array(keyBytes[0..<32])) && outputBlocks.contains(Array(keyBytes[32..<64])))
    }

    @Test func aKeyIsWipedWhenReleased() {
        let bytes = (1...32).map { UInt8($0) }
        let recorder = observing {
            let key = SymmetricKey(data: bytes)
            #expect(key.bitCount == 256)
        }
        let wipes = recorder.events.filter { $0.kind == .keyStorage }
        #expect(wipes.map(\.phase) == [.before, .after])
        #expect(wipes.first?.bytes == bytes)
        #expect(wipes.last?.bytes == [UInt8](repeating: 0, count: 32))
    }

    @Test func theGHASHKeyIsWipedAfterEachMessage() throws {
        let keyBytes = [UInt8](repeating: 0x42, count: 32)
        let key = SymmetricKey(data: keyBytes)
        let recorder = try observing {
            _ = try AES.GCM.seal(Data("value".utf8), using: key, nonce: AES.GCM.Nonce(data: Data(count: 12)))
        }
        // H = AES_K(0^128), computed here with the cipher on its own.
        let cipher = try keyBytes.withUnsafeBytes { try BitslicedAES(key: $0) }
        var hashKey = [UInt8](repeating: 0, count: 16)
        hashKey.withUnsafeMutableBytes { cipher.encryptBlock($0.baseAddress!) }
        #expect(recorder.before(.ghashKey).contains(hashKey))
        #expect(recorder.events.filter { $0.kind == .ghashKey && $0.phase == .after }.allSatisfy { $0.bytes.allSatisfy { $0 == 0 } })
    }
}
