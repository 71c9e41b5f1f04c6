import Foundation

extension FileHandle {
    /// Reads until what has come so far satisfies `done`, or the other end closes; returns
    /// all of it. For the first line of a child process's output (``readFirstLine()``) or
    /// a message a test waits for.
    public func read(until done: (Data) -> Bool) -> Data {
        var received = Data()
        while !done(received) {
            let chunk = availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        return received
    }

    /// Reads until a line feed has come (or the other end closes): a child's first line,
    /// and whatever came with it.
    public func readFirstLine() -> Data {
        read { $0.contains(UInt8(ascii: "\n")) }
    }
}
