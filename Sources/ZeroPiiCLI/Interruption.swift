import Dispatch
import ZeroPiiLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM during a run: the first is noted for the run to stop at its next
/// row, write out what it has, keep the old output file and exit with 128 + the signal;
/// a second one ends the process at once (the old output file is still untouched, since
/// it is replaced only by a finished run).
final class Interruption {
    private let received = Locked<Int32?>(nil)
    /// Kept for the life of the run: a released source stops delivering.
    private var sources: [DispatchSourceSignal] = []

    /// The signal received, if any.
    var signal: Int32? { received.withLock { $0 } }

    /// Starts listening for SIGINT and SIGTERM instead of dying of them.
    func start() {
        sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            ignore(number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [received] in
                let first = received.withLock { state -> Bool in
                    guard state == nil else { return false }
                    state = number
                    return true
                }
                if !first { _exit(128 + number) }
            }
            source.resume()
            return source
        }
    }

    /// The signal's name for messages.
    static func name(of number: Int32) -> String {
        number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)"
    }
}

/// Lets a dispatch source take `number` instead of the default action (at file scope,
/// where `signal` is the C function rather than the property).
private func ignore(_ number: Int32) {
    _ = signal(number, SIG_IGN)
}

/// Thrown by a run's loop when it sees an ``Interruption``.
struct Interrupted: Error {
    let signal: Int32
}
