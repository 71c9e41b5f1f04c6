/// Format checks for tokens.
extension String {
    /// The string's format, as a format-preserving token keeps it: every ASCII digit
    /// becomes `9`, every lowercase ASCII letter `a`, every uppercase one `A`, and every
    /// other character stays as it is.
    ///
    /// A token from a format-preserving service has the shape of its value, so a test
    /// can check that without knowing the token:
    ///
    /// ```swift
    /// #expect(result.token?.formatShape == "alice@example.com".formatShape)  // "aaaaa@aaaaaaa.aaa"
    /// ```
    public var formatShape: String {
        String(
            unicodeScalars.map { scalar -> Character in
                switch scalar.value {
                case 0x30...0x39: return "9"
                case 0x61...0x7A: return "a"
                case 0x41...0x5A: return "A"
                default: return Character(scalar)
                }
            })
    }
}
