import Testing
import ZeroPiiCrypto

@testable import ZeroPiiMockServer

extension FormatPreservingCipher {
    /// The cipher a vault of `format` uses when its key is 32 bytes of `keyByte`.
    static func vault(_ format: VaultFormat, keyByte: UInt8) -> FormatPreservingCipher {
        try! format.cipher(vaultKey: SymmetricKey(data: [UInt8](repeating: keyByte, count: 32)))
    }
}

extension VaultFormat: CustomTestStringConvertible {
    public var testDescription: String { "format \(versionText)" }
}
