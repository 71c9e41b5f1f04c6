import Foundation

/// Which host names and addresses reach this machine itself.
///
/// The curl transport never sends such a request through a proxy from the environment
/// (a proxy elsewhere cannot reach it, and the access token would leave the machine on
/// the way), and `zeropii` allows plain HTTP only to such a host.
package enum ThisMachine {
    /// Whether `host` names this machine: `localhost` (and names under it), any address
    /// of 127.0.0.0/8 or `0.0.0.0` in every form libcurl and the C library accept
    /// (`127.1`, `0x7f000001`, `2130706433`, octal), and the IPv6 loopback `::1` (or
    /// `::`), also written out or as an IPv4-mapped 127/8 address. Brackets around an
    /// IPv6 address and one final dot (as DNS allows) are ignored.
    package static func isNamed(by host: String?) -> Bool {
        guard var host = host?.lowercased(), !host.isEmpty else { return false }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") && !host.hasSuffix("..") { host.removeLast() }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        var ipv4 = in_addr()
        if inet_aton(host, &ipv4) != 0 {
            let address = UInt32(bigEndian: ipv4.s_addr)
            return address >> 24 == 127 || address == 0
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, host, &ipv6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &ipv6) { Array($0) }
        // `::1`, and `::`, which like `0.0.0.0` reaches this machine's listeners.
        let loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] <= 1
        let mappedLoopback = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        return loopback || mappedLoopback
    }
}
