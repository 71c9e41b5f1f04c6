import Foundation

@testable import ZeroPiiMockServer

// libFuzzer target: arbitrary bytes, fed in two chunks, through the mock server's HTTP
// request parser. It must never crash, and must answer every input with requests,
// a request for more bytes, or a rejection status.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    var limits = HTTPServerLimits()
    limits.maximumHeaderBytes = 4096
    limits.maximumBodyBytes = 65_536
    var parser = HTTPRequestParser(limits: limits)
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    for chunk in [bytes[0..<split], bytes[split...]] {
        parser.append(chunk)
        parsing: while true {
            switch parser.next() {
            case .request(let request):
                precondition(request.path.hasPrefix("/"), "a request without a path was accepted")
            case .needMore:
                break parsing
            case .failure(let status, _, _):
                precondition([400, 411, 413, 431, 501, 505].contains(status), "unexpected status \(status)")
                return 0
            }
        }
    }
    return 0
}
