import Foundation

#if canImport(os)
import os
#endif

/// Writes the SDK's log lines: to the app's handler when it installed one, otherwise
/// to `os_log` (subsystem `CleverTap`, category `CT-ZeroPiiSDK`) where that exists and
/// to standard error elsewhere.
///
/// Callers pass messages that are already free of personal data; this type adds no
/// request data of its own. Messages are built lazily, so a disabled level costs nothing.
struct SDKLogger: Sendable {
    let level: ZeroPiiLogLevel
    let handler: (@Sendable (ZeroPiiLogLevel, String) -> Void)?

    func error(_ message: @autoclosure () -> String) { write(.error, message) }
    func info(_ message: @autoclosure () -> String) { write(.info, message) }
    func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    private func write(_ messageLevel: ZeroPiiLogLevel, _ message: () -> String) {
        guard messageLevel != .off, messageLevel <= level else { return }
        let text = message()
        if let handler {
            handler(messageLevel, text)
            return
        }
        #if canImport(os)
        let type: OSLogType = messageLevel == .error ? .error : (messageLevel == .info ? .info : .debug)
        os_log("%{public}@", log: Self.osLog, type: type, text)
        #else
        FileHandle.standardError.write(Data("[CT-ZeroPiiSDK] \(Self.label(messageLevel)): \(text)\n".utf8))
        #endif
    }

    #if canImport(os)
    private static let osLog = OSLog(subsystem: "CleverTap", category: "CT-ZeroPiiSDK")
    #endif

    private static func label(_ level: ZeroPiiLogLevel) -> String {
        switch level {
        case .off: return "off"
        case .error: return "error"
        case .info: return "info"
        case .debug: return "debug"
        }
    }
}
