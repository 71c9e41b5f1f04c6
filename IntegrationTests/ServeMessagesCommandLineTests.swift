import Foundation
import Testing
import ZeroPiiTestHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `zeropii serve` says before it runs: usage errors exit 2 with the reason, and a
/// warning comes only when it applies, after the server could start.
@Suite(.skippedUnderThreadSanitizer)
struct ServeMessagesCommandLineTests {
    @Test func aHostThatIsNoIPv4AddressIsAUsageError() throws {
        for host in ["::1", "localhost", "127.0.0.256"] {
            let run = try CommandLineTool.run(["serve", "--host", host])
            #expect(run.status == 2, "\(host)")
            #expect(run.errorOutput.hasPrefix("zeropii: --host takes an IPv4 address such as 127.0.0.1 or 0.0.0.0\n"))
        }
    }

    /// A value an option refuses is not shown: it may be data typed in the wrong place.
    @Test func refusedValuesAreNotEchoed() throws {
        let value = "alice@example.com"
        for option in ["--host", "--port", "--token-ttl", "--wire"] {
            let run = try CommandLineTool.run(["serve", option, value])
            #expect(run.status == 2, "\(option)")
            #expect(!run.errorOutput.contains(value), "\(run.errorOutput)")
        }
        let tokenize = try CommandLineTool.run(["tokenize", "--encoding", value, "x"])
        #expect(tokenize.status == 2 && !tokenize.errorOutput.contains(value))
    }

    @Test func aClientFileThatCannotBeReadSaysWhy() throws {
        let directory = try TokenizeCommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = try CommandLineTool.run(["serve", "--client-file", directory + "/missing.txt"])
        #expect(missing.status == 2)
        #expect(missing.errorOutput.hasPrefix("zeropii: the client file \(directory)/missing.txt cannot be read: no such file or directory\n"))
        let folder = try CommandLineTool.run(["serve", "--client-file", directory])
        #expect(folder.status == 2)
        #expect(folder.errorOutput.hasPrefix("zeropii: the client file \(directory) cannot be read: it is a folder\n"))
    }

    /// A port in use is the one thing said, with no warning about OAuth clients first.
    @Test func aPortInUseIsTheOnlyLine() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        #expect(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let run = try CommandLineTool.run(["serve", "--port", String(port)])
        #expect(run.status == 1)
        let lines = run.errorOutput.split(separator: "\n").map(String.init)
        #expect(lines == ["zeropii: port \(port) is in use; choose another with --port or use --port 0"], "\(lines)")
    }

    /// Found by a stalled test run: `serve` said it was listening before it took SIGTERM,
    /// and ignored the signal until its dispatch source was registered, so a SIGTERM sent
    /// on reading that line could be lost and the server ran on (the test waiting for it
    /// held a thread of the pool, and with another test blocking the other, the run
    /// stalled). A SIGTERM sent the moment the line appears stops it every time.
    @Test func aSIGTERMSentAsSoonAsTheServerListensStopsIt() throws {
        for round in 0..<30 {
            let (process, output, _) = try CommandLineTool.start(["serve", "--port", "0"])
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            #expect(blockUntil(atMost: 60) { output.text.contains("listening") })
            kill(process.processIdentifier, SIGTERM)
            let ended = blockUntil(atMost: 20) { !process.isRunning }
            #expect(ended, "round \(round): still running 20 s after SIGTERM")
            guard ended else { return }
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 0, "round \(round)")
            #expect(blockUntil(atMost: 10) { output.text.contains("zeropii mock server stopped") }, "round \(round)")
        }
    }

    /// Found from outside: `--host 0.0.0.0 --admin --allow-any-token` started without a
    /// word. Each of the two options draws a warning on an address others can reach, and
    /// none on loopback.
    @Test func adminAndAnyTokenOffLoopbackAreWarnedAbout() throws {
        for (host, warned) in [("0.0.0.0", true), ("127.0.0.1", false)] {
            let (process, output, errors) = try CommandLineTool.start(["serve", "--host", host, "--port", "0", "--admin", "--allow-any-token"])
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            #expect(blockUntil(atMost: 60) { output.text.contains("listening") })
            kill(process.processIdentifier, SIGTERM)
            process.waitForExit(atMost: 60, "the server after SIGTERM")
            #expect(blockUntil(atMost: 10) { errors.isEnded })
            // Off loopback, the admin token made at start comes last (AdminTokenTests and
            // ServeSecurityTests check that it works).
            var lines = errors.text.split(separator: "\n").map(String.init)
            if warned, let last = lines.last, last.hasPrefix("zeropii: admin token (send 'Authorization: Bearer TOKEN' to /__admin/") {
                lines.removeLast()
            }
            let expected =
                warned
                ? [
                    "zeropii: warning: --admin on 0.0.0.0: the admin endpoints (faults, token revocation, statistics) can be reached from the network; each request needs the admin token",
                    "zeropii: warning: --allow-any-token on 0.0.0.0: anyone who can reach this address can tokenize with any bearer token",
                ] : []
            #expect(lines == expected, "\(host): \(lines)")
        }
    }
}
