import Foundation

/// The two programs the number-format differential test compares, both built once per
/// test run in a temporary folder:
///
/// - `Scripts/java/JavaNumberStrings.java`, compiled with `javac`: the JVM's
///   `Float.toString` / `Double.toString`, which must be a JDK up to 18 (OpenJDK's
///   `FloatingDecimal`, as Android ships it; JDK 19 moved to the shortest digits);
/// - `Scripts/java/SwiftNumberStrings.swift` with the number format's sources, compiled
///   with `swiftc -O`, so that millions of values take seconds (a debug build of
///   `WireValueFormat` needs about 25 µs a number). The test also checks thousands of
///   chosen values against the debug build the other tests use.
///
/// Both read little-endian bit patterns from a file and write one string (or one hash
/// per block of values) per line. `.ci/run` sets `ZEROPII_JAVA=required`, which turns a
/// missing or unsuitable JDK into a failure instead of a skipped test.
struct JavaNumberReference: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    enum Kind: String, Sendable {
        case float
        case double
    }

    let folder: URL
    let java: URL
    let swiftHelper: URL

    /// Whether the differential test should run: the tools are there, or they are required.
    static var shouldRun: Bool {
        if ProcessInfo.processInfo.environment["ZEROPII_JAVA"] == "required" { return true }
        return (try? Toolchain.located.get()) != nil
    }

    /// Built once for all the tests that use it.
    static let shared = Task<JavaNumberReference, Error> { try await build() }

    /// Each value's string, one per line, from the JVM.
    func javaStrings(_ kind: Kind, bits: Data) async throws -> [Substring] {
        try await strings(from: java, ["-cp", folder.path, "JavaNumberStrings"], kind, bits: bits)
    }

    /// Each value's string, one per line, from the optimised build of `WireValueFormat`.
    func swiftStrings(_ kind: Kind, bits: Data) async throws -> [Substring] {
        try await strings(from: swiftHelper, [], kind, bits: bits)
    }

    /// The FNV-1a hash of each block of `block` strings, from both sides at once.
    func blockHashes(_ kind: Kind, bits: Data, block: Int) async throws -> (java: [Substring], swift: [Substring]) {
        let input = try write(bits)
        let javaOutput = temporaryFile()
        let swiftOutput = temporaryFile()
        defer { [input, javaOutput, swiftOutput].forEach { try? FileManager.default.removeItem(at: $0) } }
        async let javaRun: Void = Self.run(
            java, ["-cp", folder.path, "JavaNumberStrings", "hashes", kind.rawValue, input.path, String(block), javaOutput.path])
        async let swiftRun: Void = Self.run(swiftHelper, ["hashes", kind.rawValue, input.path, String(block), swiftOutput.path])
        _ = try await (javaRun, swiftRun)
        return (try Self.lines(of: javaOutput), try Self.lines(of: swiftOutput))
    }

    private func strings(from executable: URL, _ prefix: [String], _ kind: Kind, bits: Data) async throws -> [Substring] {
        let input = try write(bits)
        let output = temporaryFile()
        defer { [input, output].forEach { try? FileManager.default.removeItem(at: $0) } }
        try await Self.run(executable, prefix + ["strings", kind.rawValue, input.path, output.path])
        return try Self.lines(of: output)
    }

    private func write(_ bits: Data) throws -> URL {
        let file = temporaryFile()
        try bits.write(to: file)
        return file
    }

    private func temporaryFile() -> URL {
        folder.appendingPathComponent(UUID().uuidString)
    }

    private static func lines(of file: URL) throws -> [Substring] {
        String(decoding: try Data(contentsOf: file), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }

    // MARK: - Building

    private static func build() async throws -> JavaNumberReference {
        let tools = try Toolchain.located.get()
        let folder = buildFolder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The compiled programs (a few megabytes) go when the test process ends.
        atexit { try? FileManager.default.removeItem(at: JavaNumberReference.buildFolder) }
        let numberSources = try FileManager.default.contentsOfDirectory(
            at: packageRoot.appendingPathComponent("Sources/ZeroPiiWire/Numbers"), includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "swift" }.map(\.path)
        let helper = folder.appendingPathComponent("swift-number-strings")
        async let javac: Void = run(tools.javac, ["-d", folder.path, packageRoot.appendingPathComponent("Scripts/java/JavaNumberStrings.java").path])
        async let swiftc: Void = run(
            tools.swiftc,
            // -package-name: WireValueFormat has package access (it is no part of the API apps see).
            ["-O", "-parse-as-library", "-module-name", "SwiftNumberStrings", "-package-name", "ZeroPii", "-o", helper.path]
                + numberSources + [packageRoot.appendingPathComponent("Scripts/java/SwiftNumberStrings.swift").path])
        _ = try await (javac, swiftc)
        return JavaNumberReference(folder: folder, java: tools.java, swiftHelper: helper)
    }

    private static let buildFolder = FileManager.default.temporaryDirectory.appendingPathComponent("zeropii-java-\(UUID().uuidString)")

    private static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    private struct Toolchain {
        let javac: URL
        let java: URL
        let swiftc: URL

        static let located: Result<Toolchain, Failure> = {
            func find(_ name: String) -> URL? {
                let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
                return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
                    .first { FileManager.default.isExecutableFile(atPath: $0.path) }
            }
            guard let javac = find("javac"), let java = find("java") else {
                return .failure(Failure(description: "javac and java are not on PATH (install openjdk-17-jdk-headless)"))
            }
            guard let swiftc = find("swiftc") else {
                return .failure(Failure(description: "swiftc is not on PATH"))
            }
            // `javac -version` prints "javac 17.0.15"; JDK 19 and later write other digits.
            let version = (try? runSynchronously(javac, ["-version"])) ?? ""
            let major = version.split(whereSeparator: { !$0.isNumber }).first.flatMap { Int($0) } ?? 0
            guard (9...18).contains(major) else {
                return .failure(Failure(description: "needs a JDK from 9 to 18 (FloatingDecimal's toString); javac says '\(version)'"))
            }
            return .success(Toolchain(javac: javac, java: java, swiftc: swiftc))
        }()
    }

    // MARK: - Processes

    /// Runs a program to the end without blocking a thread of the test's executor.
    private static func run(_ executable: URL, _ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failure(
                description:
                    "\(executable.lastPathComponent) \(arguments.prefix(3).joined(separator: " ")) exited with status \(process.terminationStatus): \(message.prefix(2000))"
            )
        }
    }

    private static func runSynchronously(_ executable: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
