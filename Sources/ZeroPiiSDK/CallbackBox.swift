/// Carries an app's callback to the callback queue or the caller's actor. The SDK calls
/// it once, there, and touches it nowhere else, so handing it across threads is safe even
/// though the reference API's closure type is not `@Sendable`.
struct CallbackBox<Result>: @unchecked Sendable {
    let callback: (Result) -> Void
    init(_ callback: @escaping (Result) -> Void) { self.callback = callback }
}
