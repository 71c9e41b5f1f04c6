import Foundation

/// State that one thread at a time reads and changes: a value behind an `NSLock`.
///
/// Mutable state that threads share outside an actor belongs in one of these: the lock
/// and what it guards are one object, so no part of the state can be reached without
/// the lock. It is built on `NSLock` because the package supports iOS 13, macOS 10.15,
/// tvOS 13 and watchOS 6, where `Synchronization.Mutex` does not exist.
///
/// The contract of ``withLock(_:)``:
/// - The body runs with the lock held and must not call back into the same `Locked`,
///   directly or through anything it calls: `NSLock` is not recursive, so that
///   deadlocks.
/// - The body must not resume a continuation or call a closure whose code it does not
///   know (an app's callback, a caller's completion), which could block or come back
///   for the lock. It returns what is to be done (the continuations to resume, the
///   callback to call) and the caller does it once `withLock` has returned, outside the
///   lock.
/// - One call is one critical section: what must be checked and changed together
///   belongs in one body, not in two calls.
/// - A body that throws leaves the lock released and the state as the body left it.
///
/// A `Locked` is `Sendable` when its state is: the lock makes sharing the state safe,
/// but not handing its parts to other threads, which is what values that leave a body
/// can do. A type whose state is not `Sendable` (a raw pointer, a `DateFormatter` on
/// some platforms) stays `@unchecked Sendable` itself and says why.
package final class Locked<State> {
    private let lock = NSLock()
    private var state: State

    /// A lock around `initial`.
    package init(_ initial: State) {
        state = initial
    }

    /// Runs `body` on the state with the lock held, and returns what it returns.
    ///
    /// See the type's documentation for what `body` must not do.
    package func withLock<Returned>(_ body: (inout State) throws -> Returned) rethrows -> Returned {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

// Sendable: `state` is read and written only inside `withLock`, with `lock` held.
extension Locked: @unchecked Sendable where State: Sendable {}
