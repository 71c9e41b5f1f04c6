import Foundation

/// `zeropii serve --port 0 --allow-any-token --admin`, run from the binary beside this
/// benchmark's, until ``stop()``.
final class ServeChild: Sendable {
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    let baseURL: URL
    private let process: Process

    private init(process: Process, baseURL: URL) {
        self.process = process
        self.baseURL = baseURL
    }

    static func start() throws -> ServeChild {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("zeropii")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw StartFailure(description: "\(binary.path) is missing: build it first (swift build -c release --product zeropii)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--allow-any-token", "--admin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line says where it listens: "... listening on http://127.0.0.1:PORT/ (...)".
        var line = Data()
        while !line.contains(10) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"http://[0-9.]+:[0-9]+/?"#, options: .regularExpression), let url = URL(string: String(text[range]))
        else {
            process.terminate()
            throw StartFailure(description: "zeropii serve did not say where it listens")
        }
        return ServeChild(process: process, baseURL: url)
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
