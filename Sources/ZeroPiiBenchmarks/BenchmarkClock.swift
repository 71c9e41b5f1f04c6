import Foundation

/// Repeats a piece of work until enough time has passed to give a stable figure.
enum BenchmarkClock {
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
}
