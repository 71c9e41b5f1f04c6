import Foundation

/// `Scripts/tls-test-server.py` as a child process, until ``stop()``.
public final class TLSTestServer: Sendable {
    /// The tokenize endpoint's URL on this server.
    public let url: URL
    /// `https://127.0.0.1:PORT/`.
    public let baseURL: URL
    /// The PEM file of the certificate authority that signed the server's certificate.
    public let certificateAuthorityFile: String
    /// The server key's pin, in curl's form.
    public let pin: String
    private let process: Process
    private let input: Pipe
    private let directory: URL

    /// Whether python3 with the `cryptography` package is there (always assumed in CI).
    public static var canRun: Bool {
        if ProcessInfo.processInfo.environment["ZEROPII_DIFFERENTIAL"] == "required" { return true }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import cryptography"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }

    /// Starts the server; with `forwardingTo`, every request is passed on to
    /// `http://127.0.0.1:PORT` and its answer passed back.
    public init(forwardingTo port: Int? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("zeropii-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/tls-test-server.py")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, directory.path] + (port.map { ["--forward", String($0)] } ?? [])
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = output.fileHandleForReading.readFirstLine()
        guard let fields = try JSONSerialization.jsonObject(with: line) as? [String: Any], let port = fields["port"] as? Int,
            let ca = fields["ca"] as? String, let pin = fields["pin"] as? String
        else { throw CocoaError(.fileReadCorruptFile) }
        baseURL = URL(string: "https://127.0.0.1:\(port)/")!
        url = URL(string: "https://127.0.0.1:\(port)/ct-vault/api/v2/tokenize")!
        certificateAuthorityFile = ca
        self.pin = pin
    }

    /// Ends the server and removes its files.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}
