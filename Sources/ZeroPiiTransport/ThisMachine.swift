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
    /// IPv6 address are ignored.
    ///
    /// A name with a final dot (`localhost.`, `127.0.0.1.`) is not this machine: libcurl
    /// asks DNS for it, and DNS can answer with any address. Only letters, digits, dots,
    /// colons and hyphens are read: the C library's parser would stop at a space and take
    /// `127.0.0.1 evil.example` for an address.
    package static func isNamed(by host: String?) -> Bool {
        guard var host = host?.lowercased(), !host.isEmpty else { return false }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard host.utf8.allSatisfy({ Self.isHostByte($0) }), !host.hasSuffix(".") else { return false }
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

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
