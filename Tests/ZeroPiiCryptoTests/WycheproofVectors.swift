import Foundation

/// Loads the Project Wycheproof test files, which the test target carries as resources
/// (`Resources/wycheproof`, with their licence note): a clone of the repository runs them,
/// and a missing or unreadable file fails the test that needs it.
enum WycheproofVectors {
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    static func load<File: Decodable>(_ name: String, as type: File.Type) throws -> File {
        guard let directory = Bundle.module.url(forResource: "wycheproof", withExtension: nil) else {
            throw LoadError(description: "the test target's resources have no wycheproof folder")
        }
        let url = directory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw LoadError(description: "Wycheproof file missing: \(url.path)")
        }
        return try JSONDecoder().decode(File.self, from: data)
    }
}

/// The fields shared by the three Wycheproof files this package reads.
struct WycheproofFile<Group: Decodable>: Decodable {
    let numberOfTests: Int
    let testGroups: [Group]
}

struct AESGCMGroup: Decodable {
    let keySize: Int
    let ivSize: Int
    let tagSize: Int
    let tests: [AESGCMCase]
}

struct AESGCMCase: Decodable, Sendable {
    let tcId: Int
    let comment: String
    let key: String
    let iv: String
    let aad: String
    let msg: String
    let ct: String
    let tag: String
    let result: String
}

struct HMACGroup: Decodable {
    let keySize: Int
    let tagSize: Int
    let tests: [HMACCase]
}

struct HMACCase: Decodable, Sendable {
    let tcId: Int
    let key: String
    let msg: String
    let tag: String
    let result: String
}

struct HKDFGroup: Decodable {
    let tests: [HKDFCase]
}

struct HKDFCase: Decodable, Sendable {
    let tcId: Int
    let ikm: String
    let salt: String
    let info: String
    let size: Int
    let okm: String
    let result: String
}
