import Testing

@testable import ZeroPiiMockServer

/// `FileSystemPath.folder(of:)` gives what `deletingLastPathComponent` gives, including
/// for the one-character names that make Foundation's stop the process on Linux.
struct FileSystemPathTests {
    static let cases: [(path: String, folder: String)] = [
        ("/a/b", "/a"), ("/a", "/"), ("a/b", "a"), ("a/b/", "a"), ("a", ""), ("q", ""), ("q/", ""), ("é", ""),
        ("/", "/"), ("", ""), ("a//b", "a"), ("./q", "."), ("/q/", "/"), ("//a", "/"), ("data/vault.db", "data"),
    ]

    @Test(arguments: cases.indices)
    func theFolderOfAPath(index: Int) {
        let (path, folder) = Self.cases[index]
        #expect(FileSystemPath.folder(of: path) == folder, "\(path)")
    }
}
