/// The first 16 bytes of HMAC-SHA256 of a value under the vault's key: how the vault
/// remembers that it has seen a value without keeping the value.
struct Fingerprint: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let array = Array(bytes)
        high = array[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = array[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    func append(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: high.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: low.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
