import Foundation
import Testing

import ZeroPiiWire

struct RequestIDTests {
    @Test func requestIDsAreLowercaseVersion4UUIDsAndDistinct() {
        let ids = (0..<1000).map { _ in RequestID.make() }
        for id in ids {
            let parsed = UUID(uuidString: id)
            #expect(parsed != nil && id.count == 36 && id == id.lowercased(), "\(id)")
            #expect(parsed?.uuidString.lowercased() == id)
            let characters = Array(id)
            #expect(characters[14] == "4" && "89ab".contains(characters[19]), "\(id)")
        }
        #expect(Set(ids).count == ids.count)
    }

    @Test func everyDigitButTheVersionAndVariantBitsIsRandom() {
        let digits = (0..<2000).map { _ in Array(RequestID.make().replacingOccurrences(of: "-", with: "")) }
        for position in 0..<32 {
            let seen = Set(digits.map { $0[position] })
            switch position {
            case 12: #expect(seen == ["4"], "the version digit")
            case 16: #expect(seen == ["8", "9", "a", "b"], "the variant digit: two fixed bits, two random")
            // 2,000 draws of 16 equally likely digits miss one with a probability below 10^-55.
            default: #expect(seen.count == 16, "digit \(position) takes \(seen.count) values")
            }
        }
    }
}
