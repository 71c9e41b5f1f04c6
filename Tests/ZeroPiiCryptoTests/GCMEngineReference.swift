import Foundation

@testable import ZeroPiiCrypto

/// AES-GCM straight through the internal engine, below `AES.GCM.Nonce`. The public API
/// refuses nonces shorter than 12 bytes (as swift-crypto does), but the engine still
/// implements SP 800-38D for every length, and the published, Wycheproof and OpenSSL
/// cases with short nonces keep checking it here.
enum GCMEngineReference {
    static func seal(key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        let engine = try key.withUnsafeBytes { try GCMEngine(key: $0) }
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: 16)
        try nonce.withUnsafeBytes { nonceBytes in
            try plaintext.withUnsafeBytes { text in
                try aad.withUnsafeBytes { associated in
                    try ciphertext.withUnsafeMutableBytes { output in
                        try tag.withUnsafeMutableBytes { tagBytes in
                            try engine.seal(
                                nonce: nonceBytes, text: text, associatedData: associated, output: output.baseAddress,
                                tag: tagBytes.baseAddress!
                            )
                        }
                    }
                }
            }
        }
        return (ciphertext, tag)
    }

    static func open(key: [UInt8], nonce: [UInt8], aad: [UInt8], ciphertext: [UInt8], tag: [UInt8]) throws -> [UInt8] {
        let engine = try key.withUnsafeBytes { try GCMEngine(key: $0) }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        try nonce.withUnsafeBytes { nonceBytes in
            try ciphertext.withUnsafeBytes { sealed in
                try aad.withUnsafeBytes { associated in
                    try tag.withUnsafeBytes { tagBytes in
                        try plaintext.withUnsafeMutableBytes { output in
                            try engine.open(
                                nonce: nonceBytes, ciphertext: sealed, associatedData: associated, tag: tagBytes,
                                output: output.baseAddress
                            )
                        }
                    }
                }
            }
        }
        return plaintext
    }
}
