import Foundation
import Testing

@testable import ZeroPiiSDK

struct AttemptRequestIDTests {
    @Test func requestIDsAreLowercaseVersion4UUIDsAndDistinct() {
        let ids = (0..<1000).map { _ in AttemptRequestID.make() }
        for id in ids {
            let parsed = UUID(uuidString: id)
            #expect(parsed != nil && id.count == 36 && id == id.lowercased(), "\(id)")
            #expect(parsed?.uuidString.lowercased() == id)
            let characters = Array(id)
            #expect(characters[14] == "4" && "89ab".contains(characters[19]), "\(id)")
        }
        #expect(Set(ids).count == ids.count)
    }
}
