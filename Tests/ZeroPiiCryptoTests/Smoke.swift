import Foundation
import Testing
@testable import ZeroPiiCrypto
@Test func smoke() throws {
    // NIST GCM test case 3 (AES-128)
    let key = SymmetricKey(data: Array(hex: "feffe9928665731c6d6a8f9467308308"))
    let pt = Array(hex: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255")
    let box = try AES.GCM.seal(pt, using: key, nonce: try .init(data: Array(hex: "cafebabefacedbaddecaf888")), authenticating: Data())
    #expect(Array(box.ciphertext) == Array(hex: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985"))
    #expect(Array(box.tag) == Array(hex: "4d5c2af327cd64a62cf35abd2ba6fab4"))
    #expect(Array(SHA256.hash(data: Array("abc".utf8))) == Array(hex: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
}
extension Array where Element == UInt8 {
    init(hex: String) {
        var out: [UInt8] = []; var it = hex.makeIterator()
        while let a = it.next(), let b = it.next() { out.append(UInt8(String([a, b]), radix: 16)!) }
        self = out
    }
}
