import Foundation
import ZeroPiiCrypto
import ZeroPiiModels
import ZeroPiiWire

// Runs the crypto on secrets that were never initialised, for valgrind's memcheck.
//
// Memcheck tracks which bytes are undefined and reports every conditional branch and
// every memory address computed from them. Keys, plaintexts and access tokens here
// come from `allocate` without initialisation, so any report whose stack is inside
// ZeroPiiCrypto is a branch or a table index that depends on a secret. The only
// expected one is the verdict of a tag check (`ConstantTime.equals` deciding valid or
// not), whose outcome is public by design. `Scripts/constant-time-check.sh` runs this
// under memcheck and reads the report.

/// Bytes whose contents memcheck considers undefined.
func uninitialisedBytes(_ count: Int) -> Data {
    let pointer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
    defer { pointer.deallocate() }
    return Data(bytes: pointer, count: count)
}

let stage = CommandLine.arguments.dropFirst().first ?? "all"

if stage == "all" || stage == "seal" {
    for keyBytes in [16, 24, 32] {
        let key = SymmetricKey(data: uninitialisedBytes(keyBytes))
        let nonce = try AES.GCM.Nonce(data: Data(repeating: 1, count: 12))
        let box = try AES.GCM.seal(uninitialisedBytes(1000), using: key, nonce: nonce, authenticating: uninitialisedBytes(40))
        let longNonce = try AES.GCM.Nonce(data: Data(repeating: 2, count: 60))
        _ = try AES.GCM.seal(uninitialisedBytes(33), using: key, nonce: longNonce)
        print("seal AES-\(keyBytes * 8): \(box.ciphertext.count) bytes")
    }
}

if stage == "all" || stage == "mac" {
    let key = SymmetricKey(data: uninitialisedBytes(32))
    let code = HMAC<SHA256>.authenticationCode(for: uninitialisedBytes(300), using: key)
    let longKey = SymmetricKey(data: uninitialisedBytes(100))
    _ = HMAC<SHA256>.authenticationCode(for: uninitialisedBytes(10), using: longKey)
    _ = SHA256.hash(data: uninitialisedBytes(1000))
    let derived = try HKDF<SHA256>.deriveKey(
        inputKeyMaterial: SymmetricKey(data: uninitialisedBytes(40)), salt: uninitialisedBytes(32),
        info: Data("zeropii/v1 request".utf8), outputByteCount: 64
    )
    print("hmac \(code.byteCount) bytes, hkdf \(derived.bitCount) bits")
}

if stage == "all" || stage == "envelope" {
    // The access token is the secret here.
    let token = String(decoding: uninitialisedBytes(48).map { $0 & 0x3F | 0x40 }, as: UTF8.self)
    let envelope = PayloadEnvelope(accessToken: token, operation: "tokenize", requestID: "r", timestamp: 1)
    let sealed = try envelope.sealRequest(uninitialisedBytes(200))
    // Opening it again (the server's side): the tag check's verdict is the only expected report.
    let opened = try envelope.openRequest(sealed)
    print("envelope \(sealed.ciphertext.count) bytes, opened \(opened.count)")
}

if stage == "all" || stage == "open" {
    // Opening a genuine box: the tag check's verdict is the only expected report.
    let key = SymmetricKey(data: uninitialisedBytes(32))
    let nonce = try AES.GCM.Nonce(data: Data(repeating: 3, count: 12))
    let box = try AES.GCM.seal(uninitialisedBytes(500), using: key, nonce: nonce)
    let opened = try AES.GCM.open(box, using: key)
    print("open \(opened.count) bytes")
}

if stage == "all" || stage == "wirejson" {
    // The CleverTap envelope carries its AES key in Base64: written into the JSON by
    // WireBase64, which must not branch on or index by the key's bits (ZeroPiiWire).
    let key = SymmetricKey(data: uninitialisedBytes(32))
    let body = WireBodies.CleverTapEnvelopeRequest.wireJSON(ciphertext: Data(count: 20), tag: Data(count: 16), key: key, iv: Data(count: 12))
    print("wire JSON \(body.count) bytes")
}

if stage == "canary" {
    // A deliberate branch on an undefined byte, outside ZeroPiiCrypto: memcheck must
    // report it, which shows the undefined-value tracking is working at all.
    let secret = uninitialisedBytes(1)
    if secret[secret.startIndex] > 127 { print("high") } else { print("low") }
}
