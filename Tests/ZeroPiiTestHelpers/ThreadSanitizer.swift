import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this test process runs under ThreadSanitizer (`swift test --sanitize=thread`):
/// its runtime, linked into the process, exports `__tsan_init`.
public let isUnderThreadSanitizer: Bool = {
    guard let process = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(process) }
    return dlsym(process, "__tsan_init") != nil
}()

extension Trait where Self == ConditionTrait {
    /// Skips a suite or test in the ThreadSanitizer passes: those that run child
    /// processes (each an instrumented binary ten times slower, checking exit statuses and
    /// files rather than this process's threads), or keep a thread of the 2-thread pool
    /// busy for minutes (a million tokens), which would starve the suites with real-time
    /// limits. They run, like everything, in the plain pass.
    public static var skippedUnderThreadSanitizer: Self {
        .disabled(if: isUnderThreadSanitizer, "runs child processes or holds a pool thread for minutes; the plain pass runs it")
    }
}
