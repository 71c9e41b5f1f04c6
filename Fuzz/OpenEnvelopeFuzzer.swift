import Foundation
@testable import ZeroPiiCrypto

// libFuzzer target: arbitrary bytes as a response ciphertext, opened with a fixed key.
// Nothing may crash, and no input may authenticate (the key is never used to seal).
private let envelope = try! PayloadEnvelope(
    accessToken: "fuzz-access-token", operation: "tokenize", requestID: "00000000-0000-4000-8000-000000000000",
    timestamp: 1_764_489_600, salt: Data(repeating: 7, count: 32)
)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(bytes: start, count: count)
    let split = min(12, bytes.count)
    let payload = SealedPayload(iv: bytes.prefix(split), ciphertext: bytes.dropFirst(split))
    if (try? envelope.openResponse(payload)) != nil {
        fatalError("a forged response authenticated")
    }
    return 0
}
