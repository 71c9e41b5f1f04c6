/// An input read as UTF-8, whatever its encoding: the readers above it (CSV rows,
/// lines of values) see UTF-8 without a byte-order mark.
///
/// The encoding is the one a byte-order mark at the start announces (UTF-8, UTF-16 LE or
/// BE), else the one given with `--encoding`, else UTF-8. A mark that contradicts
/// `--encoding` is refused rather than guessed around, and so is input without a mark
/// whose first 4 KiB hold NUL bytes: that is UTF-16 saved without a mark (or not text),
/// and read as UTF-8 its every other byte would be a NUL.
final class DecodedInput {
    /// How messages name the input: the file as given, or "standard input".
    let name: String
    /// The file read, when the input is one (for its size and whether it has more now).
    private(set) var file: InputFile?
    /// The encoding in use: known after the first ``read()``.
    private(set) var encoding: InputEncoding
    /// Whether the input started with a byte-order mark (``read()`` leaves it out, so
    /// that a writer can put a UTF-8 one back): known after the first ``read()``.
    private(set) var hadByteOrderMark = false
    /// The bytes read from the file so far, mark included: for a progress bar, which
    /// compares it with the file's size.
    private(set) var bytesReadFromFile = 0
    /// The UTF-8 bytes handed out so far.
    private var bytesHandedOut = 0

    private let declared: InputEncoding?
    private let source: () throws -> [UInt8]?
    private var transcoder: UTF8Transcoder
    private var started = false
    private var ended = false

    /// How far into unmarked input NUL bytes are looked for: a header line or the first
    /// values are in it.
    static let nulSearchLength = 4096

    /// - Parameters:
    ///   - name: how messages name the input.
    ///   - declared: the encoding `--encoding` gave, or nil.
    ///   - source: the next bytes of the input, or nil at its end.
    init(name: String, declared: InputEncoding?, source: @escaping () throws -> [UInt8]?) {
        self.name = name
        self.source = source
        self.declared = declared
        encoding = declared ?? .utf8
        transcoder = UTF8Transcoder(encoding: encoding)
    }

    /// The next UTF-8 bytes, or nil at the end of the input.
    /// - Throws: ``FileAccessError`` when reading fails; ``InputEncodingProblem`` when
    ///   the start of the input contradicts or needs `--encoding`.
    func read() throws -> [UInt8]? {
        guard !ended else { return nil }
        let chunk: [UInt8]?
        if started {
            chunk = try readFromFile()
        } else {
            started = true
            chunk = try start()
        }
        if let chunk {
            let converted = transcoder.convert(chunk)
            bytesHandedOut += converted.count
            // A chunk that held only half a UTF-16 character converts to nothing, which
            // is not the end of the input.
            return converted.isEmpty ? try read() : converted
        }
        ended = true
        let rest = transcoder.finish()
        return rest.isEmpty ? nil : rest
    }

    /// How far into the file `consumed` bytes of what ``read()`` handed out reach, in the
    /// file's own bytes (UTF-16 takes about twice as many): for a progress bar that
    /// follows what was parsed rather than what was read ahead.
    func fileBytes(forConsumed consumed: Int) -> Int {
        guard bytesHandedOut > 0 else { return 0 }
        return Int(Double(consumed) * Double(bytesReadFromFile) / Double(bytesHandedOut))
    }

    private func readFromFile() throws -> [UInt8]? {
        let chunk = try source()
        bytesReadFromFile += chunk?.count ?? 0
        return chunk
    }

    /// Reads enough of the start to see a byte-order mark, settles the encoding and
    /// returns the first bytes after the mark.
    private func start() throws -> [UInt8]? {
        var head: [UInt8] = []
        var atEnd = false
        // A pipe may deliver a byte at a time: read until a mark would be complete.
        while head.count < 3 {
            guard let chunk = try readFromFile() else {
                atEnd = true
                break
            }
            head += chunk
        }
        if let announced = InputEncoding.announced(by: head) {
            if let declared, declared != announced {
                throw InputEncodingProblem(
                    message: "\(name) starts with a \(announced.rawValue) byte-order mark, but --encoding says \(declared.rawValue)",
                    hint: "leave out --encoding: the mark says how the file is written")
            }
            encoding = announced
            transcoder = UTF8Transcoder(encoding: announced)
            hadByteOrderMark = true
            head.removeFirst(announced.byteOrderMark?.count ?? 0)
        } else if declared == nil, let guess = Self.unmarkedUTF16(head) {
            throw InputEncodingProblem(
                message: "\(name) holds NUL bytes at its start: it looks like \(guess.rawValue) text saved without a byte-order mark",
                hint: "give --encoding \(guess.rawValue) (or save it as UTF-8)")
        }
        if head.isEmpty { return atEnd ? nil : try readFromFile() }
        return head
    }

    /// The UTF-16 byte order that unmarked input looks written in: NUL bytes at one
    /// parity of offset (odd for little-endian, `a\0b\0`; even for big-endian) for at
    /// least one character in eight (the ASCII ones: delimiters, digits, line breaks, a
    /// header), and hardly any at the other. A stray NUL in UTF-8 text is not that.
    static func unmarkedUTF16(_ head: [UInt8]) -> InputEncoding? {
        let searched = head.prefix(nulSearchLength)
        var odd = 0
        var even = 0
        for (offset, byte) in searched.enumerated() where byte == 0 {
            if offset % 2 == 0 { even += 1 } else { odd += 1 }
        }
        let characters = searched.count / 2
        let (more, fewer) = (max(odd, even), min(odd, even))
        guard more >= 2, more * 8 >= characters, fewer * 8 <= more else { return nil }
        return odd > even ? .utf16LittleEndian : .utf16BigEndian
    }
}

/// The start of the input contradicts `--encoding`, or needs it: a usage error (exit 2)
/// with a hint.
struct InputEncodingProblem: Error, Equatable {
    let message: String
    let hint: String
}

extension DecodedInput {
    /// `file` read in chunks of up to 1 MiB.
    convenience init(file: InputFile, declared: InputEncoding?) {
        self.init(name: file.name, declared: declared) { try file.read() }
        self.file = file
    }
}
