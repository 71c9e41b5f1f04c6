import Foundation
import Testing

extension Array where Element == UInt8 {
    /// Bytes from a hex string; traps on malformed input, which only test tables contain.
    init(hex: String) {
        precondition(hex.count % 2 == 0, "hex strings have an even length")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = bytes
    }

    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

extension Data {
    init(hex: String) { self.init([UInt8](hex: hex)) }
    var hex: String { [UInt8](self).hex }
}
