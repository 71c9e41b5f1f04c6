/// The first 16 bytes of HMAC-SHA256 of a value under the vault's key: how the vault
/// remembers that it has seen a value without keeping the value.
///
/// On disk (the log's records and the index's slots) a fingerprint is its 16 bytes in
/// order, `high` then `low`, big-endian.
///
/// Fingerprints are ordered by `high`, then `low`: the order of their home slots in
/// ``VaultIndex``'s table, whatever its size.
struct Fingerprint: Hashable, Comparable, Sendable {
    let high: UInt64
    let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let array = Array(bytes)
        high = array[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = array[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Reads the 16 bytes at `pointer`, which need not be aligned.
    init(bytesAt pointer: UnsafeRawPointer) {
        high = UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self))
        low = UInt64(bigEndian: pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }

    /// All zeros: the index's mark of an empty slot, so this one fingerprint is
    /// remembered apart (a chance of 2^-128, but then it is still right).
    var isZero: Bool { high == 0 && low == 0 }

    func store(at pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: high.bigEndian, as: UInt64.self)
        pointer.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
    }

    static func < (left: Fingerprint, right: Fingerprint) -> Bool {
        left.high != right.high ? left.high < right.high : left.low < right.low
    }

    /// The slot where the search for this fingerprint starts in a table of `slotCount`
    /// slots: `high` scaled to the table, so that slots are in fingerprint order.
    func homeSlot(amongSlots slotCount: Int) -> Int {
        Int(high.multipliedFullWidth(by: UInt64(slotCount)).high)
    }

    func append(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: high.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: low.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
