import Dispatch
import Foundation
import ZeroPiiRetry
import ZeroPiiSDK
import ZeroPiiTransport

/// `transport [CALLS]`: the two transports side by side, in one run, against a
/// `zeropii serve` child process on 127.0.0.1 (so the server's CPU is not the client's):
///
/// - (a) client CPU per request through ZeroPiiSDK's async API (payload encryption on):
///   one value, and a 1,000-value batch; and per 400 B and 70 KB POST through the
///   transport alone. Both transports' processes stay up for the whole part, and their
///   rounds run in pairs, back to back in alternating order; the ratio printed is the
///   median of the pairs' own ratios, so the host's drifting speed moves both sides of
///   each ratio alike;
/// - (b) the client's CPU while one call waits 3 s for the server's answer;
/// - (c) 1,000 concurrent calls (500 through callbacks, 500 through the async API) with
///   a 1 s `callTimeout` over a server that answers after 3 s: how long after its call
///   each result arrives;
/// - (d) resident memory over CALLS sequential 1-value calls (default 100,000), after
///   the first 10,000 and at the end.
///
/// Each transport runs in a process of its own (this benchmark again, as
/// `transport-child NAME PART URL CALLS`), so neither is charged for the other's threads:
/// client CPU is that process's CPU time (every thread: the SDK, the transport, the
/// callbacks) divided by the requests. The `zeropii` binary is the one built beside
/// this benchmark.
enum TransportBenchmark {
    static let names: [String] = {
        #if os(Linux)
        return ["URLSession", "libcurl"]
        #else
        return ["URLSession"]
        #endif
    }()

    static func run(soakCalls: Int) async {
        let server: ServeChild
        do {
            server = try ServeChild.start()
        } catch {
            print("transport: \(error)")
            return
        }
        defer { server.stop() }
        let cpu = pairedCPURounds(url: server.baseURL)
        var figures: [String: [String: Double]] = [:]
        for name in names {
            figures[name] = runChild(name: name, part: "rest", url: server.baseURL, calls: soakCalls)
        }
        func value(_ name: String, _ key: String) -> Double { figures[name]?[key] ?? .nan }
        func cpuMedian(_ name: String, _ measurement: String) -> Double {
            cpu.figures[name]?[measurement].map(BenchmarkClock.median) ?? .nan
        }

        print("Transports against `zeropii serve` at \(server.baseURL) (a child process), release build, one run;")
        print("each transport in a client process of its own")
        print("")
        print("(a) client CPU per call (process CPU time / calls): \(pairedRounds) pairs of rounds, the two transports'")
        print("    rounds back to back in alternating order; the median round of each transport")
        print("    " + pad("", 12) + pad("through the SDK", 32) + "through the transport alone")
        print("    " + pad("transport", 12) + pad("1 value", 12) + pad("1,000-value batch", 20) + pad("400 B POST", 12) + "70 KB POST")
        for name in names {
            print(
                "    " + pad(name, 12) + pad(format(cpuMedian(name, "single")), 12) + pad(format(cpuMedian(name, "batch")), 20)
                    + pad(format(cpuMedian(name, "small")), 12) + format(cpuMedian(name, "post")))
        }
        if names.count == 2 {
            func ratio(_ measurement: String) -> String {
                let sorted = (cpu.ratios[measurement] ?? []).sorted()
                guard !sorted.isEmpty else { return "n/a" }
                return String(
                    format: "%.3f [%.3f–%.3f]", BenchmarkClock.median(sorted), sorted[sorted.count / 4],
                    sorted[sorted.count - 1 - sorted.count / 4])
            }
            print("    \(names[1]) / \(names[0]), the median of the pairs' own ratios [their middle half]:")
            print("      1 value \(ratio("single")), batch \(ratio("batch"))")
            print("      400 B POST \(ratio("small")), 70 KB POST \(ratio("post"))")
        }
        print("")
        print("(b) client CPU while one call waits 3 s for the answer")
        for name in names {
            print(String(format: "    %@ %.1f ms of CPU over %.2f s", pad(name, 12), value(name, "waitCPU") * 1000, value(name, "waitWall")))
        }
        print("")
        print("(c) 1,000 concurrent calls (half callbacks, half async), callTimeout 1 s, server answering after 3 s:")
        print("    seconds from each call until its result")
        print("    " + pad("transport", 12) + pad("first", 9) + pad("median", 9) + pad("99th", 9) + pad("last", 9) + "after 1.10 s")
        for name in names {
            print(
                "    " + pad(name, 12) + pad(seconds(value(name, "first")), 9) + pad(seconds(value(name, "median")), 9)
                    + pad(seconds(value(name, "p99")), 9) + pad(seconds(value(name, "last")), 9) + String(format: "%.0f", value(name, "late")))
        }
        print("")
        print("(d) resident memory over \(soakCalls) sequential 1-value calls")
        for name in names {
            let (after, end) = (value(name, "rssAfter10k"), value(name, "rssEnd"))
            print(
                String(
                    format: "    %@ %.1f MB after 10,000 calls, %.1f MB at the end: %+.2f MB (%.3f KB a call)", pad(name, 12), after, end,
                    end - after,
                    (end - after) * 1024 / Double(max(1, soakCalls - 10_000))))
        }
    }

    /// The rows of part (a), as the children name them: one value and a 1,000-value batch
    /// through the SDK, a 400 B and a 70 KB POST through the transport alone.
    static let cpuMeasurements = ["single", "batch", "small", "post"]
    static let pairedRounds = 15

    /// Part (a): both transports' children kept running, and for each measurement one
    /// discarded round apiece, then `pairedRounds` pairs of rounds, each pair back to back
    /// and the order alternating. Returns every round's figure per transport and
    /// measurement, and each pair's own ratio (the second transport over the first).
    private static func pairedCPURounds(url: URL) -> (figures: [String: [String: [Double]]], ratios: [String: [Double]]) {
        var children: [TransportCPUChild] = []
        defer { children.forEach { $0.finish() } }
        for name in names {
            do {
                children.append(try TransportCPUChild(name: name, url: url))
            } catch {
                print("transport: could not run the \(name) child: \(error)")
                return ([:], [:])
            }
        }
        var figures: [String: [String: [Double]]] = [:]
        var ratios: [String: [Double]] = [:]
        for measurement in cpuMeasurements {
            for child in children { _ = child.round(measurement) }
            for pair in 0..<pairedRounds {
                var round: [String: Double] = [:]
                for child in pair % 2 == 0 ? children : children.reversed() {
                    round[child.name] = child.round(measurement)
                }
                for (name, figure) in round { figures[name, default: [:]][measurement, default: []].append(figure) }
                if names.count == 2, let first = round[names[0]], let second = round[names[1]] {
                    ratios[measurement, default: []].append(second / first)
                }
            }
        }
        return (figures, ratios)
    }

    /// Runs `transport-child` for one transport and reads its `key value` lines.
    private static func runChild(name: String, part: String, url: URL, calls: Int) -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["transport-child", name, part, url.absoluteString, String(calls)]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            print("transport: could not run the \(name) child: \(error)")
            return [:]
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var figures: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let number = Double(parts[1]) { figures[String(parts[0])] = number }
        }
        return figures
    }

    /// The measurements for one transport, printed as `key value` lines: `cpu-rounds` is (a),
    /// `rest` (b) to (d), `soak` (d) alone; for the tests, `long` is one call with a 90 s
    /// attempt limit against a server told to answer late, and `limits` CALLS calls with a
    /// 1 s limit against a server it tells to answer after 60 s (which needs its admin
    /// endpoints).
    static func runChild(name: String, part: String, url: URL, soakCalls: Int) async {
        let make: @Sendable () -> any HTTPTransport
        switch name {
        #if os(Linux)
        case "libcurl": make = { try! CurlTransport() }
        #endif
        default: make = { URLSessionTransport() }
        }
        func emit(_ key: String, _ value: Double) { print("\(key) \(value)") }

        if part == "limits" {
            // 1,000 calls with a 1 s limit, against a server told (after a first call that
            // gets the connection going) to answer after 60 s: each should end as a time-out.
            let sdk = makeSDK(make(), url: url, callTimeout: 1, requestTimeout: 30)
            _ = await sdk.tokenize("warm-up@example.com")
            await setLatency(milliseconds: 60_000, url: url, transport: make())
            let ends = await ConcurrentCallTimes.run(sdk, calls: soakCalls)
            emit("calls", Double(ends.count))
            emit("timeouts", Double(ends.filter { $0.errorKind == .timeout }.count))
            emit("first", ends.first?.seconds ?? .nan)
            emit("last", ends.last?.seconds ?? .nan)
            return
        }
        if part == "long" {
            // One attempt of up to 90 s, no retry, against a server told to answer late.
            let sdk = makeSDK(
                make(), url: url, callTimeout: 120, requestTimeout: 90, retryPolicy: DefaultRetryPolicy(maximumRetries: 0, baseDelayMs: 0))
            let start = DispatchTime.now().uptimeNanoseconds
            let result = await sdk.tokenize("late@example.com")
            emit("longSeconds", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            emit("longSucceeded", result.isSuccess ? 1 : 0)
            return
        }
        let sdk = makeSDK(make(), url: url, callTimeout: 120)
        _ = await sdk.tokenize("warm-up@example.com")
        if part == "soak" {
            await soak(sdk, calls: soakCalls, emit: emit)
            return
        }
        let transport = make()
        if part == "cpu-rounds" {
            // One round per line read: the calls of `cpuMeasurements`' rows, sized so a
            // round takes a few tens of milliseconds.
            _ = await sdk.batchTokenize(SDKBenchmark.batchValues)
            func post(size: Int) -> TransportRequest {
                TransportRequest(
                    method: "POST", url: url.appendingPathComponent("benchmark/echo"), headers: ["Content-Type": "application/octet-stream"],
                    body: Data(count: size), timeout: 30)
            }
            let (small, large) = (post(size: 400), post(size: 70 * 1024))
            while let measurement = readLine() {
                let figure: Double
                switch measurement {
                case "single": figure = await cpuPerCall(calls: 300) { _ = await sdk.tokenize("alice@example.com") }
                case "batch": figure = await cpuPerCall(calls: 10) { _ = await sdk.batchTokenize(SDKBenchmark.batchValues) }
                case "small": figure = await cpuPerCall(calls: 300) { _ = try? await transport.send(small) }
                case "post": figure = await cpuPerCall(calls: 100) { _ = try? await transport.send(large) }
                default: figure = .nan
                }
                // Unbuffered: the parent waits for this line before it goes on.
                FileHandle.standardOutput.write(Data("\(measurement) \(figure)\n".utf8))
            }
            return
        }

        await setLatency(milliseconds: 3_000, url: url, transport: transport)
        let waitStart = BenchmarkClock.processCPUSeconds()
        let wallStart = DispatchTime.now().uptimeNanoseconds
        _ = await sdk.tokenize("slow@example.com")
        emit("waitWall", Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9)
        emit("waitCPU", BenchmarkClock.processCPUSeconds() - waitStart)

        let limited = makeSDK(make(), url: url, callTimeout: 1)
        let times = await ConcurrentCallTimes.run(limited, calls: 1_000).map(\.seconds)
        emit("first", times.first ?? .nan)
        emit("median", BenchmarkClock.median(times))
        emit("p99", times[times.count * 99 / 100])
        emit("last", times.last ?? .nan)
        emit("late", Double(times.filter { $0 > 1.10 }.count))
        await setLatency(milliseconds: 0, url: url, transport: transport)

        await soak(sdk, calls: soakCalls, emit: emit)
    }

    /// (d): `calls` sequential 1-value calls, resident memory after the first 10,000 (or
    /// the first 40 %, for fewer than 25,000) and at the end. Also run alone, as
    /// `transport-child NAME soak URL CALLS`, by the soak tests.
    static func soak(_ sdk: ZeroPiiSDK, calls: Int, emit: (String, Double) -> Void) async {
        let first = min(10_000, calls * 2 / 5)
        var failures = 0
        for index in 0..<first where await !sdk.tokenize("soak-\(index % 1000)@example.com").isSuccess { failures += 1 }
        emit("rssAfter10k", ResidentMemory.megabytes())
        for index in first..<calls where await !sdk.tokenize("soak-\(index % 1000)@example.com").isSuccess { failures += 1 }
        emit("rssEnd", ResidentMemory.megabytes())
        emit("soakCalls", Double(calls - first))
        emit("soakFailures", Double(failures))
    }

    private static func makeSDK(
        _ transport: any HTTPTransport, url: URL, callTimeout: TimeInterval, requestTimeout: TimeInterval = 60,
        retryPolicy: RetryPolicy = DefaultRetryPolicy()
    ) -> ZeroPiiSDK {
        var configuration = ZeroPiiConfiguration()
        configuration.transport = transport
        configuration.callTimeout = callTimeout
        configuration.requestTimeout = requestTimeout
        configuration.callbackQueue = DispatchQueue(label: "benchmark.transport.callbacks")
        return ZeroPiiSDK.initialize(
            tokenProvider: FixedTokenProvider(token: "benchmark-token"), apiUrl: url.absoluteString, logLevel: .off,
            retryPolicy: retryPolicy, configuration: configuration)
    }

    /// Sets the latency the server adds to every answer (`POST /__admin/faults`).
    private static func setLatency(milliseconds: Int, url: URL, transport: any HTTPTransport) async {
        let request = TransportRequest(
            method: "POST", url: url.appendingPathComponent("__admin/faults"), headers: ["Content-Type": "application/json"],
            body: Data(#"{"kind":"latency","milliseconds":\#(milliseconds)}"#.utf8), timeout: 10)
        let status = (try? await transport.send(request))?.statusCode
        precondition(status == 200, "the latency fault was refused")
    }

    /// Client CPU µs per call over `calls` calls of `body`: the process's CPU time, every thread.
    private static func cpuPerCall(calls: Int, _ body: () async -> Void) async -> Double {
        let start = BenchmarkClock.processCPUSeconds()
        for _ in 0..<calls { await body() }
        return (BenchmarkClock.processCPUSeconds() - start) * 1e6 / Double(calls)
    }

    private static func format(_ microseconds: Double) -> String {
        microseconds >= 1000 ? String(format: "%.2f ms", microseconds / 1000) : String(format: "%.0f µs", microseconds)
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

}
