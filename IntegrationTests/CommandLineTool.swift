import Foundation

/// Runs the `zeropii` executable built next to the test bundle.
struct CommandLineTool {
    struct Finished {
        let status: Int32
        let output: String
        let errorOutput: String
    }

    static var executable: URL {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("zeropii")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundleDirectory.appendingPathComponent("zeropii")
    }

    /// Runs to completion with no standard input.
    static func run(_ arguments: [String]) throws -> Finished {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Finished(
            status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self), errorOutput: String(decoding: errData, as: UTF8.self)
        )
    }
}
