import Foundation

/// Why a server could not start, in words that say what to do about it.
enum ServerStartFailure {
    /// The message for `error` thrown while starting a server on `host:port`; `server`
    /// names it in the sentence for any other error ("the embedded server").
    static func describe(_ error: Error, host: String, port: UInt16, server: String = "the server") -> String {
        let code: Int32?
        if let posix = error as? POSIXError {
            code = posix.code.rawValue
        } else if (error as NSError).domain == NSPOSIXErrorDomain {
            code = Int32((error as NSError).code)
        } else {
            code = nil
        }
        switch code {
        case EADDRINUSE?: return "port \(port) is in use; choose another with --port or use --port 0"
        case EACCES?: return "port \(port) needs administrator rights (ports below 1024); choose another with --port or use --port 0"
        case EADDRNOTAVAIL?: return "\(host) is not an address of this machine; check --host"
        case EINVAL?: return "'\(host)' is not an IPv4 address; give --host such as 127.0.0.1"
        case let other?: return "\(server) could not start: \(Console.reason(other))"
        case nil: return "\(server) could not start: \(error)"
        }
    }
}
