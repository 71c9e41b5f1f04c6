/// Path arithmetic on plain strings. Foundation's `NSString.deletingLastPathComponent`
/// stops the process on Linux for a path whose last component is one character (`q`,
/// `q/`, `é`), which is a name a user may well give a data folder or file.
package enum FileSystemPath {
    /// The folder that holds `path`, as `deletingLastPathComponent` gives it: `/a` for
    /// `/a/b`, `/` for `/a`, `a` for `a/b/`, and the empty string for a bare name (the
    /// current folder).
    package static func folder(of path: String) -> String {
        var scalars = Substring(path)
        while scalars.count > 1 && scalars.hasSuffix("/") { scalars.removeLast() }
        guard let slash = scalars.lastIndex(of: "/") else { return "" }
        var folder = scalars[..<slash]
        while folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty && path.hasPrefix("/") ? "/" : String(folder)
    }
}
