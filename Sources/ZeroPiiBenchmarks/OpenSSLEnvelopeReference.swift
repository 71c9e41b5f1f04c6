import Foundation

/// Runs `Scripts/envelope_reference.py`, the v1 envelope's round trip through OpenSSL, in a
/// process of its own, and reads the CPU time per round trip it measured (its own start-up
/// is not counted).
struct OpenSSLEnvelopeReference {
    let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/envelope_reference.py")

    /// Whether python3 with the `cryptography` package can run the script here.
    var isAvailable: Bool { microseconds(size: 16, seconds: 0.01) != nil }

    /// CPU µs per round trip of `size` bytes over `seconds` of the script's CPU time, or
    /// nil when the script cannot run.
    func microseconds(size: Int, seconds: Double) -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, String(seconds), String(size)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = String(data: data, encoding: .utf8)?.split(separator: "\n").first,
            let value = line.split(separator: " ").last.flatMap({ Double($0) })
        else { return nil }
        return value
    }
}
