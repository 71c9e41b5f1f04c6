import Dispatch
import ZeroPiiLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP (a terminal or SSH session that went away) during a run. Before the run has begun tokenizing (waiting for
/// another process's vault, for a FIFO's reader), the signal ends the process at once
/// with one line: nothing was written. Once it has, the first signal is noted and the
/// run's task cancelled, so that a batch waiting for a slow server ends at once; the run
/// then keeps what it wrote, leaves the old output file as it was and exits with
/// 128 + the signal. A second signal ends the process at once, with one line.
final class Interruption: Sendable {
    private struct State {
        var signal: Int32?
        var tokenizing = false
        var cancelRun: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    /// The signal received, if any.
    var signal: Int32? { state.withLock { $0.signal } }

    /// Starts listening for SIGINT, SIGTERM and SIGHUP instead of dying of them; `cancelRun`
    /// cancels the run's task.
    func start(cancelRun: @escaping @Sendable () -> Void) {
        state.withLock { $0.cancelRun = cancelRun }
        SignalWatcher.watch([SIGINT, SIGTERM, SIGHUP]) { [state] number in
            let (first, tokenizing, cancel) = state.withLock { state -> (Bool, Bool, (@Sendable () -> Void)?) in
                let first = state.signal == nil
                if first { state.signal = number }
                return (first, state.tokenizing, state.cancelRun)
            }
            let name = Interruption.name(of: number)
            if !tokenizing {
                OutputFile.removeUnfinishedFiles()
                Console.error("zeropii: interrupted by \(name) before anything was tokenized; no output file was changed")
                _exit(128 + number)
            }
            if !first {
                OutputFile.removeUnfinishedFiles()
                Console.error("zeropii: stopped at once by a second \(name); an --output file keeps its old contents")
                _exit(128 + number)
            }
            cancel?()
        }
    }

    /// Says that the run has begun tokenizing: from now on a signal lets it stop cleanly.
    func tokenizingBegan() {
        state.withLock { $0.tokenizing = true }
    }

    /// The signal's name for messages.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}

/// Thrown by a run's loop when it sees an ``Interruption``.
struct Interrupted: Error {
    let signal: Int32
}
