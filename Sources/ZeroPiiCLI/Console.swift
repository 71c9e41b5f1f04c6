#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Notes, progress and errors on standard error, written with POSIX `write`.
///
/// FileHandle's `write` traps when the descriptor is closed or its reader has gone;
/// a message about a run must never be the thing that crashes it, so a failed write
/// here is dropped.
enum Console {
    /// Writes `line` and a line break to standard error. Control characters other than
    /// tabs (an escape sequence or a line break in a file name, a NUL) are shown as `?`,
    /// so that nothing a message quotes can act on the terminal or pass for a line of its
    /// own in a log.
    static func error(_ line: String) {
        writeAll(Array((visible(line) + "\n").utf8), to: STDERR_FILENO)
    }

    /// Writes each line of `text` as ``error(_:)`` does: for the tool's own text of
    /// several lines (usage, a message and its hint).
    static func errorLines(_ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { error(String(line)) }
    }

    /// `text` with control characters other than tab replaced by `?`.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isHidden(scalar) ? "?" : scalar) }
        return String(scalars)
    }

    /// Controls, and format characters such as U+202E, which would turn the rest of
    /// the line around on screen.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar != "\t" else { return false }
        let category = scalar.properties.generalCategory
        return category == .control || category == .format
    }

    /// Writes `text` as it is to standard error (progress redraws its line with `\r`).
    static func errorText(_ text: String) {
        writeAll(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Writes `text` and a line break to standard output, unbuffered (a script reading
    /// the serve command's address sees it at once); a closed output is ignored.
    static func output(_ text: String) {
        writeAll(Array((text + "\n").utf8), to: STDOUT_FILENO)
    }

    /// True when standard error is a terminal (progress is drawn only there).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes every byte unless the descriptor fails; returns the `errno` of a failure.
    @discardableResult
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(descriptor, base + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            // No progress at all would loop for ever; report it as an I/O error.
            if written == 0 { return EIO }
            offset += written
        }
        return nil
    }

    /// The system's words for `code`, starting in lower case to sit inside a sentence.
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return "error \(code)" }
        return first.lowercased() + text.dropFirst()
    }
}
