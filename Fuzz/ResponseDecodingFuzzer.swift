import Foundation
// The wire bodies have package access: not part of the API apps see.
@testable import ZeroPiiModels

// libFuzzer target: arbitrary bytes through the response decoders the SDK uses. Must
// never crash; decoding either fails or gives a value that re-encodes and decodes alike.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let decoder = JSONDecoder()
    if let batch = try? decoder.decode(WireBodies.BatchTokenizeResponse.self, from: data) {
        let again = try! decoder.decode(WireBodies.BatchTokenizeResponse.self, from: try! JSONEncoder().encode(batch))
        precondition(again == batch, "batch response did not survive a round trip")
    }
    _ = try? decoder.decode(WireBodies.TokenizeResponse.self, from: data)
    _ = try? decoder.decode(WireBodies.EnvelopeResponse.self, from: data)
    _ = try? decoder.decode(WireBodies.CleverTapEnvelopeResponse.self, from: data)
    _ = try? decoder.decode(WireBodies.ErrorResponse.self, from: data)
    return 0
}
