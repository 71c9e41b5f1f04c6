import Foundation

/// The process's memory as the system counts it.
enum ResidentMemory {
    /// Resident memory now, from `/proc/self/statm`; the peak where that file does not
    /// exist (Apple platforms).
    static func megabytes() -> Double {
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = text.split(separator: " ")
            if fields.count > 1, let pages = Double(fields[1]) {
                return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
            }
        }
        #endif
        return peakMegabytes()
    }

    /// The most resident memory the process has had (`getrusage`).
    static func peakMegabytes() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576
        #endif
    }
}
