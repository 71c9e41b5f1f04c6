import Foundation

/// The transport the SDK and the `zeropii` tool use when the app configures none:
/// ``CurlTransport`` on Linux, ``URLSessionTransport`` elsewhere, and on Linux also when
/// libcurl cannot be loaded.
package enum DefaultTransport {
    /// A new default transport with room for `maximumConnections` connections, and a
    /// line to log when it had to fall back to `URLSession`.
    package static func make(maximumConnections: Int) -> (transport: any HTTPTransport, notice: String?) {
        #if canImport(ZeroPiiCurlShim) && os(Linux)
        var options = CurlTransport.Options()
        options.maximumConnections = max(1, maximumConnections)
        do {
            return (try CurlTransport(options: options), nil)
        } catch {
            return (URLSessionTransport(), "\(error); using URLSession instead")
        }
        #else
        return (URLSessionTransport(), nil)
        #endif
    }
}
