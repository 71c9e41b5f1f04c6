import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Repeats a piece of work until enough time has passed to give a stable figure.
enum BenchmarkClock {
    /// The middle value of `values` (the mean of the two middle ones for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Runs `body` repeatedly for about `seconds` after a short warm-up and returns
    /// the number of runs per second of the fastest of three measurement rounds.
    static func runsPerSecond(seconds: Double = 0.6, _ body: () -> Void) -> Double {
        for _ in 0..<3 { body() }
        var best = 0.0
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            let deadline = start + UInt64(seconds / 3 * 1e9)
            var runs = 0
            var now = start
            repeat {
                body()
                runs += 1
                now = DispatchTime.now().uptimeNanoseconds
            } while now < deadline
            best = max(best, Double(runs) / (Double(now - start) / 1e9))
        }
        return best
    }

    /// The CPU time this thread has used, in seconds. Unlike the wall clock it does not
    /// run while the thread waits for a core, so on a shared machine it measures the
    /// work rather than the neighbours.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The CPU time of the whole process, every thread, in seconds: for work that hops
    /// between threads (Swift tasks).
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Runs `body` for about `seconds` of this thread's CPU time and returns the CPU
    /// microseconds per run.
    static func cpuMicrosecondsPerRun(seconds: Double, _ body: () -> Void) -> Double {
        body()
        let start = threadCPUSeconds()
        var runs = 0
        var now = start
        repeat {
            for _ in 0..<16 { body() }
            runs += 16
            now = threadCPUSeconds()
        } while now - start < seconds
        return (now - start) * 1e6 / Double(runs)
    }
}
