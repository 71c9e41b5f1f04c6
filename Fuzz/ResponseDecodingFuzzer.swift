import Foundation
// The wire bodies and their strict reader have package access: not part of the API apps
// see.
import ZeroPiiModels

@testable import ZeroPiiWire

// libFuzzer target: arbitrary bytes through the response decoders the SDK uses (the
// strict WireJSON reader) and through JSONDecoder. Must never crash; a body the WireJSON
// reader accepts is one JSONDecoder accepts with the same values, and it re-encodes and
// reads alike.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let decoder = JSONDecoder()
    if let batch = try? WireBodies.BatchTokenizeResponse(wireJSON: data) {
        precondition((try? decoder.decode(WireBodies.BatchTokenizeResponse.self, from: data)) == batch, "JSONDecoder reads the batch otherwise")
        let again = try! WireBodies.BatchTokenizeResponse(wireJSON: batch.wireJSON)
        precondition(again == batch, "batch response did not survive a round trip")
    }
    if let single = try? WireBodies.TokenizeResponse(wireJSON: data) {
        precondition((try? decoder.decode(WireBodies.TokenizeResponse.self, from: data)) == single, "JSONDecoder reads the answer otherwise")
    }
    if let error = try? WireBodies.ErrorResponse(wireJSON: data) {
        precondition((try? decoder.decode(WireBodies.ErrorResponse.self, from: data)) == error, "JSONDecoder reads the error otherwise")
    }
    _ = try? WireBodies.EnvelopeResponse(wireJSON: data)
    _ = try? WireBodies.CleverTapEnvelopeResponse(wireJSON: data)
    _ = try? decoder.decode(WireBodies.TokenizeResponse.self, from: data)
    _ = try? decoder.decode(WireBodies.EnvelopeResponse.self, from: data)
    _ = try? decoder.decode(WireBodies.CleverTapEnvelopeResponse.self, from: data)
    return 0
}
