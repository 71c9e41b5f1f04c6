import Foundation
import Testing
import ZeroPiiSDK
import ZeroPiiTestHelpers
import ZeroPiiTestSupport

/// The CleverTap-compatible envelope (Docs/Protocol.md, section 9) against an independent
/// implementation: `Scripts/java/CleverTapEnvelope.java`, which seals and opens bodies
/// with `javax.crypto` as CleverTap's Android SDK does. Java talks to `zeropii serve`,
/// opens requests the Swift SDK sealed and seals the SDK's answers; any difference fails.
///
/// Runs when `javac` is on PATH; `.ci/run` sets `ZEROPII_JAVA=required`, which turns a
/// missing JDK into a failure instead of a skipped test.
@Suite(.skippedUnderThreadSanitizer, .enabled(if: JavaEnvelopeProgram.shouldRun))
struct CleverTapEnvelopeJavaTests {
    @Test func javaTalksToZeropiiServeAndGetsTheSDKsTokens() async throws {
        let java = try await JavaEnvelopeProgram.shared.value
        let server = try await OffPool.serve(["--allow-any-token", "--wire", "clevertap"])
        defer { _ = server.stop() }
        let batchValues = ["bob@example.com", "+1 (555) 010-2345", "42", "bob@example.com"]
        let lines = try await java.run(["client", server.address, "any-token", "alice@example.com"] + batchValues)
            .split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(lines)")
        #expect(lines[0].hasPrefix("tokenize 200 ") && lines[1].hasPrefix("batch 200 "), "\(lines)")
        let single = try JSONDecoder().decode(WireBodies.TokenizeResponse.self, from: Data(lines[0].dropFirst("tokenize 200 ".count).utf8))
        let batch = try JSONDecoder().decode(WireBodies.BatchTokenizeResponse.self, from: Data(lines[1].dropFirst("batch 200 ".count).utf8))
        #expect(single.newlyCreated && !single.exists && single.dataType == "string")
        #expect(batch.results.map(\.originalValue) == batchValues)
        #expect(batch.results.map(\.newlyCreated) == [true, true, true, false])
        #expect(batch.summary == .init(processedCount: 4, existingCount: 1, newlyCreatedCount: 3))

        // The Swift side, in the same profile against the same server, gets the same tokens.
        let swift = try await OffPool.tool(
            ["tokenize", "--wire", "clevertap", "--api-url", server.address, "alice@example.com"] + batchValues,
            environment: ["ZEROPII_ACCESS_TOKEN": "any-token"])
        #expect(swift.status == 0, "\(swift.errorOutput)")
        #expect(swift.output.split(separator: "\n").map(String.init) == [single.token] + batch.results.map(\.token))
    }

    @Test func javaOpensTheSDKsRequestsAndSealsItsAnswers() async throws {
        let java = try await JavaEnvelopeProgram.shared.value
        let opened = OpenedRequests()
        let transport = ClosureTransport { request in
            #expect(request.header("Encrypted") == "true" && request.header("X-ZeroPii-Encryption") == nil)
            let requestFile = try java.file(request.body)
            let plaintext = try await java.run(["open", requestFile.path, "-"], outputFile: true)
            let answer: Data
            if request.url.path.hasSuffix("/tokenize/batch") {
                let values = try JSONDecoder().decode(WireBodies.BatchTokenizeRequest.self, from: plaintext).values
                opened.append(.batch(values))
                let items = values.map {
                    WireBodies.BatchTokenizeItem(originalValue: $0, token: Self.token(for: $0), exists: false, newlyCreated: true, dataType: "string")
                }
                answer = try JSONEncoder().encode(
                    WireBodies.BatchTokenizeResponse(
                        results: items, summary: .init(processedCount: items.count, existingCount: 0, newlyCreatedCount: items.count)))
            } else {
                let value = try JSONDecoder().decode(WireBodies.TokenizeRequest.self, from: plaintext).value
                opened.append(.single(value))
                answer = try JSONEncoder().encode(
                    WireBodies.TokenizeResponse(token: Self.token(for: value), exists: true, newlyCreated: false, dataType: "string"))
            }
            let answerFile = try java.file(answer)
            let sealed = try await java.run(["seal", requestFile.path, answerFile.path, "-"], outputFile: true)
            return TransportResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: sealed)
        }
        await ExclusiveTestGate.sharedSDK.withExclusiveAccess {
            var configuration = ZeroPiiConfiguration()
            configuration.wireProfile = .cleverTapCompatible
            configuration.transport = transport
            configuration.callbackQueue = DispatchQueue(label: "java-interop.callbacks")
            let sdk = ZeroPiiSDK.initialize(
                tokenProvider: AsyncAccessTokenProvider { AccessTokenInfo(token: "java-interop", expiresInSeconds: 3600) },
                apiUrl: "http://java.invalid/", logLevel: .off, retryPolicy: DefaultRetryPolicy(), configuration: configuration)
            let single = await sdk.tokenize("alice@example.com")
            #expect(single.isSuccess && single.token == Self.token(for: "alice@example.com") && single.exists)
            let values = ["bob@example.com", "42", "carol@example.com"]
            let batch = await sdk.batchTokenize(values)
            #expect(batch.isSuccess, "\(batch.errorMessage ?? "")")
            #expect(batch.results.map(\.token) == values.map(Self.token(for:)))
            #expect(opened.all == [.single("alice@example.com"), .batch(values)])
        }
    }

    /// The stand-in token of the loopback exchange: the value reversed.
    private static func token(for value: String) -> String {
        String(value.reversed())
    }
}

/// The requests Java opened, in order.
final class OpenedRequests: @unchecked Sendable {
    // Sendable: `requests` is guarded by `lock`.
    enum Request: Equatable {
        case single(String)
        case batch([String])
    }

    private let lock = NSLock()
    private var requests: [Request] = []

    var all: [Request] { lock.withLock { requests } }

    func append(_ request: Request) {
        lock.withLock { requests.append(request) }
    }
}

/// `Scripts/java/CleverTapEnvelope.java`, compiled once per test run into a temporary folder.
struct JavaEnvelopeProgram: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let folder: URL
    let java: URL

    static var shouldRun: Bool {
        ProcessInfo.processInfo.environment["ZEROPII_JAVA"] == "required" || tool("javac") != nil
    }

    static let shared = Task<JavaEnvelopeProgram, Error> {
        guard let javac = tool("javac"), let java = tool("java") else {
            throw Failure(description: "javac and java are not on PATH (install openjdk-17-jdk-headless)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zeropii-clevertap-java-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let program = JavaEnvelopeProgram(folder: folder, java: java)
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/java/CleverTapEnvelope.java")
        _ = try await program.run(executable: javac, ["-d", folder.path, source.path])
        return program
    }

    private static func tool(_ name: String) -> URL? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// A new file in the program's folder holding `contents`.
    func file(_ contents: Data) throws -> URL {
        let url = folder.appendingPathComponent(UUID().uuidString)
        try contents.write(to: url)
        return url
    }

    /// Runs the Java program and returns its standard output.
    func run(_ arguments: [String]) async throws -> String {
        String(decoding: try await run(executable: java, ["-cp", folder.path, "CleverTapEnvelope"] + arguments), as: UTF8.self)
    }

    /// Runs the Java program with its last argument, `-`, replaced by a new file, and
    /// returns what it wrote there.
    func run(_ arguments: [String], outputFile: Bool) async throws -> Data {
        let output = folder.appendingPathComponent(UUID().uuidString)
        _ = try await run(executable: java, ["-cp", folder.path, "CleverTapEnvelope"] + arguments.dropLast() + [output.path])
        return try Data(contentsOf: output)
    }

    /// Runs a program to the end without blocking a thread of the test's executor; a
    /// non-zero exit is a failure that carries the program's standard error.
    private func run(executable: URL, _ arguments: [String]) async throws -> Data {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let collectedOutput = Collected()
        let collectedErrors = Collected()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            Thread.detachNewThread { collectedOutput.finish(output.fileHandleForReading.readDataToEndOfFile()) }
            Thread.detachNewThread { collectedErrors.finish(errors.fileHandleForReading.readDataToEndOfFile()) }
        }
        let standardOutput = collectedOutput.wait()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: collectedErrors.wait(), as: UTF8.self)
            throw Failure(
                description:
                    "\(executable.lastPathComponent) \(arguments.suffix(4).joined(separator: " ")) exited with \(process.terminationStatus): \(message)"
            )
        }
        return standardOutput
    }
}
