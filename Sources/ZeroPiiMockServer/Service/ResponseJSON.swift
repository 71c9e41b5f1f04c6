import Foundation

/// Writes the tokenize response bodies directly, instead of through `JSONEncoder`,
/// which dominated the server's time for large batches. The output is the same JSON
/// the protocol's Codable types decode (tested against them).
enum ResponseJSON {
    struct Item {
        let originalValue: String
        let token: String
        let exists: Bool
        let newlyCreated: Bool
        let isNumber: Bool
    }

    static func single(_ item: Item) -> Data {
        var out = [UInt8]()
        out.reserveCapacity(96 + item.token.utf8.count)
        out.append(contentsOf: #"{"token":"#.utf8)
        appendString(item.token, to: &out)
        appendFlags(item, to: &out)
        out.append(UInt8(ascii: "}"))
        return Data(out)
    }

    static func batch(_ items: [Item]) -> Data {
        var out = [UInt8]()
        out.reserveCapacity(items.count * 128 + 96)
        out.append(contentsOf: #"{"results":["#.utf8)
        var existing = 0
        var created = 0
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"originalValue":"#.utf8)
            appendString(item.originalValue, to: &out)
            out.append(contentsOf: #","token":"#.utf8)
            appendString(item.token, to: &out)
            appendFlags(item, to: &out)
            out.append(UInt8(ascii: "}"))
            if item.exists { existing += 1 }
            if item.newlyCreated { created += 1 }
        }
        out.append(
            contentsOf: "],\"summary\":{\"processedCount\":\(items.count),\"existingCount\":\(existing),\"newlyCreatedCount\":\(created)}}".utf8)
        return Data(out)
    }

    private static func appendFlags(_ item: Item, to out: inout [UInt8]) {
        out.append(contentsOf: (item.exists ? #","exists":true"# : #","exists":false"#).utf8)
        out.append(contentsOf: (item.newlyCreated ? #","newlyCreated":true"# : #","newlyCreated":false"#).utf8)
        out.append(contentsOf: (item.isNumber ? #","dataType":"number""# : #","dataType":"string""#).utf8)
    }

    /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
