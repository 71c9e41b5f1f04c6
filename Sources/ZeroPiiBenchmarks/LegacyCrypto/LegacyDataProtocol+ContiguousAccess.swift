import Foundation

extension DataProtocol {
    /// Calls `body` with the bytes of this collection in one contiguous buffer.
    ///
    /// `Data` and `[UInt8]` hand out their own storage; a collection made of several
    /// regions (such as `DispatchData`) is copied once into a temporary array first.
    func withContiguousBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if let result = try withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        if regions.count == 1, let region = regions.first {
            if let result = try region.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
                return result
            }
        }
        let copy = [UInt8](self)
        return try copy.withUnsafeBytes(body)
    }
}
