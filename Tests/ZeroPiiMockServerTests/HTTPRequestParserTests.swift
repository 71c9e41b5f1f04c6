import Foundation
import Testing

@testable import ZeroPiiMockServer

/// The incremental parser against a stream of pipelined requests cut at random places:
/// whatever the cuts, the same requests come out, with the same bodies.
struct HTTPRequestParserTests {
    struct Expected: Equatable {
        let method: String
        let path: String
        let body: Data
    }

    /// A generator with a fixed seed, so a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func pipelinedRequestsSurviveAnyChunking(seed: UInt64) {
        var random = SplitMix(state: seed)
        var stream = [UInt8]()
        var expected: [Expected] = []
        for index in 0..<40 {
            let hasBody = Bool.random(using: &random)
            let body = Data((0..<(hasBody ? Int.random(in: 0...20_000, using: &random) : 0)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) })
            var head = hasBody ? "POST /r\(index) HTTP/1.1\r\nContent-Length: \(body.count)\r\n" : "GET /r\(index)?q=1 HTTP/1.1\r\n"
            head +=
                "Host: x\r\n" + String(repeating: "X-Pad: \(String(repeating: "p", count: 100))\r\n", count: Int.random(in: 0...50, using: &random))
            if Int.random(in: 0..<4, using: &random) == 0 { stream += Array("\r\n".utf8) }  // an empty line between requests
            stream += Array((head + "\r\n").utf8) + Array(body)
            expected.append(Expected(method: hasBody ? "POST" : "GET", path: "/r\(index)", body: body))
        }

        var parser = HTTPRequestParser(limits: HTTPServerLimits())
        var parsed: [Expected] = []
        var offset = 0
        while offset < stream.count || !parsed.isEmpty && parsed.count < expected.count {
            if offset < stream.count {
                let length = min(stream.count - offset, Int.random(in: 1...9000, using: &random))
                parser.append(stream[offset..<(offset + length)])
                offset += length
                // Sometimes more bytes arrive before the parser is asked again.
                if offset < stream.count && Int.random(in: 0..<3, using: &random) == 0 { continue }
            }
            var progressed = false
            parsing: while true {
                switch parser.next() {
                case .request(let request):
                    parsed.append(Expected(method: request.method, path: request.path, body: request.body))
                    progressed = true
                case .needMore:
                    break parsing
                case .failure(let status, _, let message):
                    Issue.record("rejected with \(status): \(message)")
                    return
                }
            }
            if offset == stream.count && !progressed { break }
        }
        #expect(parsed.count == expected.count)
        #expect(parsed == expected)
        #expect(!parser.isMidRequest)
    }

    @Test func aHeadIsRejectedAsSoonAsABareLineFeedArrives() {
        var parser = HTTPRequestParser(limits: HTTPServerLimits())
        parser.append(ArraySlice("GET / HTTP/1.1\r\nHost: x\r\nX: a\n".utf8))
        guard case .failure(let status, _, _) = parser.next() else {
            Issue.record("a bare LF was not rejected before the end of the head")
            return
        }
        #expect(status == 400)
    }
}
