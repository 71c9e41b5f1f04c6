import Foundation
import ZeroPiiCrypto

/// Throughput of the pure-Swift primitives at the sizes the SDK meets: a single
/// request (1 KiB), a large batch (16 KiB) and bulk data (1 MiB).
enum CryptoBenchmarks {
    static let sizes = [1024, 16 * 1024, 1024 * 1024]

    static func run() {
        print("ZeroPiiCrypto throughput (MB/s = 10^6 bytes per second, best of 3 rounds)")
        print(pad("operation", 26) + sizes.map { pad(label(for: $0), 12) }.joined())

        row("SHA-256") { size in
            let data = Data(repeating: 0x61, count: size)
            return { blackHole(SHA256.hash(data: data)) }
        }
        row("HMAC-SHA256") { size in
            let data = Data(repeating: 0x61, count: size)
            let key = SymmetricKey(size: .bits256)
            return { blackHole(HMAC<SHA256>.authenticationCode(for: data, using: key)) }
        }
        for keySize in [SymmetricKeySize.bits128, .bits256] {
            let key = SymmetricKey(size: keySize)
            let name = "AES-\(keySize.bitCount)-GCM"
            row("\(name) seal") { size in
                let data = Data(repeating: 0x61, count: size)
                return { blackHole(try! AES.GCM.seal(data, using: key)) }
            }
            row("\(name) open") { size in
                let box = try! AES.GCM.seal(Data(repeating: 0x61, count: size), using: key)
                return { blackHole(try! AES.GCM.open(box, using: key)) }
            }
        }

        let inputKey = SymmetricKey(data: Data("an access token of typical length, about 40 bytes".utf8))
        let salt = Data(repeating: 7, count: 32)
        let info = Data("zeropii/v1 request".utf8)
        let derivations = BenchmarkClock.runsPerSecond {
            blackHole(try! HKDF<SHA256>.deriveKey(inputKeyMaterial: inputKey, salt: salt, info: info, outputByteCount: 32))
        }
        print(pad("HKDF-SHA256 (32-byte key)", 26) + String(format: "%.0f derivations/s", derivations))
    }

    private static func row(_ name: String, makeWork: (Int) -> () -> Void) {
        var line = pad(name, 26)
        for size in sizes {
            let work = makeWork(size)
            let runs = BenchmarkClock.runsPerSecond(work)
            line += pad(String(format: "%.1f", runs * Double(size) / 1e6), 12)
        }
        print(line)
    }

    private static func label(for size: Int) -> String {
        size >= 1024 * 1024 ? "\(size / (1024 * 1024)) MiB" : "\(size / 1024) KiB"
    }

}

/// Keeps the optimiser from discarding a result that is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
