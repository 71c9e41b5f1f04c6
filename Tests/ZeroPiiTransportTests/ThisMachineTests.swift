import Testing
import ZeroPiiTransport

/// The hosts that reach this machine: the curl transport sends no request for them
/// through a proxy, and `zeropii` allows plain HTTP to them alone.
struct ThisMachineTests {
    @Test func thisMachinesNamesAndAddressesAreKnown() {
        // The other notations of 127/8 were found from outside: a proxy from the
        // environment would have carried the access token off the machine.
        let local = [
            "localhost", "LOCALHOST", "api.localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "127.1", "127.0.0",
            "0x7f000001", "2130706433", "0177.0.0.1", "0x7f.1", "0.0.0.0", "0", "[0:0:0:0:0:0:0:1]", "::ffff:127.0.0.1",
            "[::ffff:7f00:1]", "::",
        ]
        for host in local {
            #expect(ThisMachine.isNamed(by: host), "\(host)")
        }
        let remote = [
            "example.com", "128.0.0.1", "127.0.0.1.example.com", "localhost.example.com", "::2", "", "128.1", "0x80000001", "1.2.3.4",
            "::ffff:10.0.0.1", "127.0.0.1..", "[::1", "fe80::1", "localhostx",
            // DNS names (a final dot), and text the C library's parser would cut short.
            "localhost.", "127.0.0.1.", "a.localhost.", "127.0.0.1 evil.example", "127.0.0.1\tx", "0127.0.0.1",
        ]
        for host in remote {
            #expect(!ThisMachine.isNamed(by: host), "\(host)")
        }
        #expect(!ThisMachine.isNamed(by: nil))
    }
}
