import Foundation
import ZeroPiiLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Takes SIGINT, SIGTERM and SIGHUP instead of dying of them, with no moment in which a
/// signal is lost.
///
/// A dispatch signal source needs the signal ignored first and registers itself later, on
/// the dispatch manager's thread: a signal that came in between was dropped, and a
/// `zeropii serve` that had already said it was listening ran on after its SIGTERM (a test
/// that then waited for it hung). Here a C handler is installed at once and writes the
/// signal's number to a pipe (`write` is safe in a signal handler); a thread of its own
/// reads the pipe and calls the handler given. A signal before ``watch(_:handler:)``
/// returns gets the default action; any signal after it reaches the handler.
enum SignalWatcher {
    private static let handler = Locked<(@Sendable (Int32) -> Void)?>(nil)
    private static let started = Locked(false)

    /// Installs the signal handlers for `signals` and has `handler` called with each
    /// signal's number, on a thread of its own, in the order they came. A later call
    /// replaces the handler.
    static func watch(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        Self.handler.withLock { $0 = handler }
        let readEnd: Int32? = started.withLock { started in
            guard !started else { return nil }
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return nil }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            signalPipeWriteEnd = ends[1]
            started = true
            return ends[0]
        }
        if let readEnd {
            Thread.detachNewThread { deliver(from: readEnd) }
        }
        for number in signals {
            _ = signal(number, forwardSignalToPipe)
        }
    }

    private static func deliver(from readEnd: Int32) {
        while true {
            var byte: UInt8 = 0
            let count = read(readEnd, &byte, 1)
            if count == 1 {
                handler.withLock { $0 }?(Int32(byte))
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}

/// The pipe's write end for the C handler, which can capture nothing; set once, before
/// any handler is installed.
private nonisolated(unsafe) var signalPipeWriteEnd: Int32 = -1

/// The C signal handler: the signal's number into the pipe, `errno` left as it was.
private let forwardSignalToPipe: @convention(c) (Int32) -> Void = { number in
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}
