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
