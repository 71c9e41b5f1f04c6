import Foundation

/// One transport's `transport-child NAME cpu-rounds URL 0` process, kept running for the
/// whole of part (a) of ``TransportBenchmark`` so that its rounds can alternate with the
/// other transport's: each line it is sent names a measurement, and it runs one round of
/// it and answers with a `key value` line (client CPU µs per call).
///
/// Keeping both children alive, rather than running each transport's rounds in one go,
/// is what lets a pair of rounds be measured within a fraction of a second of each other,
/// so that the host's speed, which changes from minute to minute, moves both alike.
final class TransportCPUChild {
    let name: String
    private let process = Process()
    private let commands = Pipe()
    private let answers = Pipe()
    private var unread = Data()

    init(name: String, url: URL) throws {
        self.name = name
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["transport-child", name, "cpu-rounds", url.absoluteString, "0"]
        process.standardInput = commands
        process.standardOutput = answers
        try process.run()
    }

    /// Runs one round of `measurement` in the child and returns its figure, or nil when the
    /// child answered something else or has ended.
    func round(_ measurement: String) -> Double? {
        guard process.isRunning else { return nil }
        commands.fileHandleForWriting.write(Data("\(measurement)\n".utf8))
        guard let line = nextLine() else { return nil }
        let fields = line.split(separator: " ")
        guard fields.count == 2, fields[0] == measurement else { return nil }
        return Double(fields[1])
    }

    /// Closes the child's input, which ends it, and waits for it to exit.
    func finish() {
        try? commands.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func nextLine() -> String? {
        while true {
            if let newline = unread.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: unread[unread.startIndex..<newline], as: UTF8.self)
                unread.removeSubrange(unread.startIndex...newline)
                return line
            }
            let chunk = answers.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            unread.append(chunk)
        }
    }
}
