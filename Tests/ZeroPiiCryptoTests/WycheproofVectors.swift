import Foundation

/// Loads Project Wycheproof test files.
///
/// The folder comes from `ZEROPII_WYCHEPROOF_DIR` (which `.ci/run` sets); without it,
/// from `../shared/vectors/wycheproof` beside the package, where a checkout normally
/// has it. When the variable is set, a missing or unreadable file is an error, so CI
/// can never pass by silently running no vectors.
enum WycheproofVectors {
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    static var directory: URL? {
        if let configured = ProcessInfo.processInfo.environment["ZEROPII_WYCHEPROOF_DIR"], !configured.isEmpty {
            return URL(fileURLWithPath: configured, isDirectory: true)
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sibling = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors/wycheproof")
        return FileManager.default.fileExists(atPath: sibling.path) ? sibling : nil
    }

    /// Whether vectors can be found at all (for tests that are skipped without them).
    static var isAvailable: Bool { directory != nil }

    static func load<File: Decodable>(_ name: String, as type: File.Type) throws -> File {
        guard let directory else {
            throw LoadError(description: "no Wycheproof folder: set ZEROPII_WYCHEPROOF_DIR")
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
