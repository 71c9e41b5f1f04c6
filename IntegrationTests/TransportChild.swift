import Foundation
import Testing
import ZeroPiiMockServer

/// `zeropii-benchmarks transport-child`, built beside the tests, run as a process of its
/// own: its memory and its shared SDK instance are its own, apart from this process's
/// other suites. It reads `key value` lines back.
enum TransportChild {
    static var executable: URL {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("zeropii-benchmarks")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundleDirectory.appendingPathComponent("zeropii-benchmarks")
    }

    /// A mock server that takes any bearer token (the child's is fixed), with its admin
    /// endpoints, through which a child sets the server's latency.
    static func makeServer() throws -> MockTokenizationServer {
        var configuration = MockServerConfiguration()
        configuration.allowAnyToken = true
        configuration.adminEnabled = true
        return try MockTokenizationServer(configuration: configuration)
    }

    /// Runs `transport-child TRANSPORT PART URL COUNT` against `server`, with `input` on its
    /// standard input (then closed). The child is waited for on a thread of its own: a
    /// test that blocked a thread of the cooperative pool for the child's minute would
    /// starve the suites running beside it.
    static func run(
        _ transport: String, _ part: String, server: MockTokenizationServer, count: Int, input: String = ""
    ) async throws -> [String: Double] {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["transport-child", transport, part, server.baseURL.absoluteString, String(count)]
        let output = Pipe()
        let commands = Pipe()
        process.standardOutput = output
        process.standardInput = commands
        try process.run()
        commands.fileHandleForWriting.write(Data(input.utf8))
        try commands.fileHandleForWriting.close()
        let text: String = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
        #expect(process.terminationStatus == 0)
        var figures: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let number = Double(parts[1]) { figures[String(parts[0])] = number }
        }
        return figures
    }
}
